"""
One streaming turn with an official Python SDK, asked twice with the same body: the first is cut
mid-stream by the test's proxy, the second is the user's retry (resume on retry, docs/recoveries.md).

    python3 resume-after-cut.py CLIENT BASE_URL KEY

CLIENT is openai-chat, anthropic-messages or gemini. The SDKs' own retries are off: the retry here
is the one a program (or its user) makes after the error. Prints one JSON object:
{"first": {"ok", "text" | "error"}, "retry": {...}}. Exits 3 when an SDK is not installed.
"""

import json
import sys

try:
    import anthropic
    import openai
    from google import genai
    from google.genai import types as genai_types
except ImportError as error:
    print(json.dumps({"missing": str(error)}))
    sys.exit(3)

PROMPT = "Tell me."


def openai_chat(base_url, key):
    client = openai.OpenAI(api_key=key, base_url=f"{base_url}/v1", max_retries=0)
    text = ""
    for chunk in client.chat.completions.create(model="slow", stream=True, messages=[{"role": "user", "content": PROMPT}]):
        if chunk.choices and chunk.choices[0].delta.content:
            text += chunk.choices[0].delta.content
    return text


def anthropic_messages(base_url, key):
    client = anthropic.Anthropic(api_key=key, base_url=base_url, max_retries=0)
    with client.messages.stream(model="slow", max_tokens=100, messages=[{"role": "user", "content": PROMPT}]) as stream:
        return "".join(block.text for block in stream.get_final_message().content if block.type == "text")


def gemini(base_url, key):
    client = genai.Client(api_key=key, http_options=genai_types.HttpOptions(base_url=base_url))
    text = ""
    for chunk in client.models.generate_content_stream(model="slow", contents=PROMPT):
        text += chunk.text or ""
    return text


CLIENTS = {"openai-chat": openai_chat, "anthropic-messages": anthropic_messages, "gemini": gemini}


def ask(client, base_url, key):
    try:
        return {"ok": True, "text": client(base_url, key)}
    except Exception as error:  # noqa: BLE001 - the cut surfaces as whichever error the SDK's HTTP stack raises
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}


def main():
    name, base_url, key = sys.argv[1:4]
    client = CLIENTS[name]
    first = ask(client, base_url, key)
    retry = ask(client, base_url, key)
    print(json.dumps({"first": first, "retry": retry}))


if __name__ == "__main__":
    main()

"""
Validates what the gateway sent its clients against the official Python SDKs' own types, and calls
the gateway with those SDKs' clients.

    python3 check-sdk-types.py RECORDS.jsonl GATEWAY_URL

RECORDS.jsonl holds one {"kind", "label", "value"} per line: a response body, a stream event, an
error body or a model list as a client received it. The SDKs' models are pydantic: model_validate
rejects a missing required field or a wrong type, which the SDKs' own parsing (built for speed,
without validation) lets through until a program reads the field. Prints one JSON object:
{"versions", "checked", "failures", "clients"}. Exits 3 when an SDK is not installed.
"""

import copy
import json
import sys
import typing
import warnings
from importlib.metadata import version

try:
    import anthropic
    import openai
    import pydantic
    from google import genai
    from google.genai import errors as genai_errors
    from google.genai import models as genai_models
    from google.genai import types as genai_types
except ImportError as error:
    print(json.dumps({"missing": str(error)}))
    sys.exit(3)

from anthropic.types import Message, ModelInfo, RawMessageStreamEvent
from anthropic.types.shared import ErrorResponse
from openai.types import Model as OpenAIModel
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import Response, ResponseStreamEvent
from openai.types.shared import ErrorObject



def discriminated(union):
    """A validator of the union's member named by `type`, as the SDKs pick it (pydantic's own error for a union lists every member)."""
    members = {}
    for member in typing.get_args(typing.get_args(union)[0] if typing.get_origin(union) is typing.Annotated else union):
        for literal in typing.get_args(member.model_fields["type"].annotation):
            members[literal] = member

    def validate(value):
        member = members.get(value.get("type"))
        if member is None:
            raise ValueError(f"no event type {value.get('type')!r} in {union}")
        return member.model_validate(value)

    return validate


RESPONSES_EVENT = discriminated(ResponseStreamEvent)
ANTHROPIC_EVENT = discriminated(RawMessageStreamEvent)


def anthropic_event(value):
    # `ping` is no RawMessageStreamEvent: the SDK's stream skips it by name.
    if value == {"type": "ping"}:
        return
    ANTHROPIC_EVENT(value)


def strict(model):
    return lambda value: model.model_validate(value)


def openai_error(value):
    """OpenAI's envelope, `{"error": ErrorObject}`; the SDK reads its fields into APIError."""
    if set(value) != {"error"}:
        raise ValueError(f"an OpenAI error body has one key, error; got {sorted(value)}")
    ErrorObject.model_validate(value["error"])


def openai_model_list(value):
    if value.get("object") != "list" or not isinstance(value.get("data"), list):
        raise ValueError("an OpenAI model list is {object: 'list', data: [...]}")
    for item in value["data"]:
        OpenAIModel.model_validate(item)


def anthropic_model_list(value):
    """Anthropic's page: the SDK's AsyncPage reads data, has_more, first_id and last_id."""
    for key in ("data", "has_more", "first_id", "last_id"):
        if key not in value:
            raise ValueError(f"an Anthropic model page lacks {key}")
    for item in value["data"]:
        ModelInfo.model_validate(item)


def gemini_response(value):
    """As generate_content parses it (camelCase → fields), with no field the SDK does not know."""
    converted = genai_models._GenerateContentResponse_from_mldev(value, None, None)
    genai_types.GenerateContentResponse.model_validate(converted)
    # The converter keeps only what it knows: what it leaves out never reaches a program.
    genai_types.GenerateContentResponse.model_validate(value)


def gemini_error(value):
    """Google's envelope, `{"error": {code, message, status}}`, as APIError reads it."""
    error = value.get("error")
    if not isinstance(error, dict) or not isinstance(error.get("code"), int) or not isinstance(error.get("message"), str) or not isinstance(error.get("status"), str):
        raise ValueError("a Gemini error body is {error: {code: int, message: str, status: str}}")
    parsed = genai_errors.APIError(error["code"], value)
    if parsed.status != error["status"] or parsed.message != error["message"]:
        raise ValueError("APIError did not read the status and message")


def gemini_model(value):
    if not str(value.get("name", "")).startswith("models/"):
        raise ValueError("a Gemini model name starts with models/")
    # As models.get and models.list read it: the converter, then the SDK's removal of what it does
    # not map (which edits the dict it is given: a copy).
    converted = genai_models._Model_from_mldev(copy.deepcopy(value), None, None)
    genai_types.Model._from_response(response=converted, kwargs={})


def gemini_model_list(value):
    if not isinstance(value.get("models"), list):
        raise ValueError("a Gemini model list is {models: [...]}")
    for item in value["models"]:
        gemini_model(item)


VALIDATORS = {
    "openai-chat/response": strict(ChatCompletion),
    "openai-chat/chunk": strict(ChatCompletionChunk),
    "openai-chat/error": openai_error,
    "openai-responses/response": strict(Response),
    "openai-responses/event": RESPONSES_EVENT,
    "openai-responses/error": openai_error,
    "anthropic-messages/response": strict(Message),
    "anthropic-messages/event": anthropic_event,
    "anthropic-messages/error": strict(ErrorResponse),
    "gemini/response": gemini_response,
    "gemini/error": gemini_error,
    "openai/model-list": openai_model_list,
    "openai/model": strict(OpenAIModel),
    "anthropic/model-list": anthropic_model_list,
    "anthropic/model": strict(ModelInfo),
    "gemini/model-list": gemini_model_list,
    "gemini/model": gemini_model,
}


def check(kind, value):
    """The validator's complaint, or None. genai's enums warn (not fail) on values they lack: a failure here."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            VALIDATORS[kind](value)
        except Exception as error:  # noqa: BLE001 - every complaint is reported, whatever its type
            return f"{type(error).__name__}: {error}"
    complaints = [str(warning.message) for warning in caught if not issubclass(warning.category, DeprecationWarning)]
    return "; ".join(complaints) or None


def check_records(path):
    failures = []
    checked = 0
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            checked += 1
            complaint = check(record["kind"], record["value"])
            if complaint:
                failures.append({"label": record["label"], "kind": record["kind"], "error": complaint[:1500]})
    return checked, failures


def revalidate(parsed):
    """The SDK builds its objects without validation: validate what it built, as a program would read it."""
    type(parsed).model_validate(parsed.model_dump(mode="json", exclude_unset=True, warnings=False))


def run_clients(url):
    """A few paths through each SDK's own client, each a name and a short summary or an error."""
    results = []

    def attempt(name, call):
        try:
            results.append({"name": name, "ok": True, "summary": call()})
        except Exception as error:  # noqa: BLE001 - reported to the test, which names it
            results.append({"name": name, "ok": False, "error": f"{type(error).__name__}: {str(error)[:1000]}"})

    question = [{"role": "user", "content": "What is the weather?"}]
    tool_schema = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
    oa = openai.OpenAI(api_key="sk-test", base_url=f"{url}/v1", max_retries=0)
    ant = anthropic.Anthropic(api_key="sk-test", base_url=url, max_retries=0)
    google = genai.Client(api_key="test-key", http_options=genai_types.HttpOptions(base_url=url))

    def chat_create():
        completion = oa.chat.completions.create(model="up-anthropic/text", messages=question)
        revalidate(completion)
        return completion.choices[0].message.content

    def chat_stream():
        with oa.chat.completions.stream(
            model="up-gemini/tool",
            messages=question,
            tools=[{"type": "function", "function": {"name": "lookup", "parameters": tool_schema}}],
            stream_options={"include_usage": True},
        ) as stream:
            completion = stream.get_final_completion()
        return [call.function.name for call in completion.choices[0].message.tool_calls or []]

    def responses_create():
        response = oa.responses.create(model="up-chat/text", input="What is the weather?")
        revalidate(response)
        details = response.usage.input_tokens_details
        return {"text": response.output_text, "cached": details.cached_tokens, "cache_write": details.cache_write_tokens}

    def responses_stream():
        with oa.responses.stream(
            model="up-gemini/tool",
            input="What is the weather?",
            tools=[{"type": "function", "name": "lookup", "parameters": tool_schema, "strict": False}],
        ) as stream:
            for event in stream:
                RESPONSES_EVENT(event.model_dump(mode="json", exclude_unset=True, warnings=False))
            response = stream.get_final_response()
        revalidate(response)
        return [item.name for item in response.output if item.type == "function_call"]

    def anthropic_create():
        message = ant.messages.create(model="up-responses/text", max_tokens=256, messages=question)
        revalidate(message)
        return message.content[0].text

    def anthropic_stream():
        with ant.messages.stream(
            model="up-chat/tool",
            max_tokens=256,
            messages=question,
            tools=[{"name": "lookup", "input_schema": tool_schema}],
        ) as stream:
            message = stream.get_final_message()
        revalidate(message)
        return [block.name for block in message.content if block.type == "tool_use"]

    def anthropic_models():
        return [model.id for model in ant.models.list()][:3]

    def gemini_create():
        response = google.models.generate_content(model="up-responses/text", contents="What is the weather?")
        return response.text

    def gemini_stream():
        texts = [chunk.text or "" for chunk in google.models.generate_content_stream(model="up-anthropic/text", contents="What is the weather?")]
        return "".join(texts)

    def gemini_models():
        return [model.name for model in google.models.list()][:3]

    attempt("openai chat.completions.create (Anthropic upstream)", chat_create)
    attempt("openai chat.completions.stream (Gemini upstream, tool call)", chat_stream)
    attempt("openai responses.create (Chat upstream)", responses_create)
    attempt("openai responses.stream (Gemini upstream, tool call)", responses_stream)
    attempt("anthropic messages.create (Responses upstream)", anthropic_create)
    attempt("anthropic messages.stream (Chat upstream, tool call)", anthropic_stream)
    attempt("anthropic models.list", anthropic_models)
    attempt("google-genai generate_content (Responses upstream)", gemini_create)
    attempt("google-genai generate_content_stream (Anthropic upstream)", gemini_stream)
    attempt("google-genai models.list", gemini_models)
    return results


def main():
    records, url = sys.argv[1], sys.argv[2]
    checked, failures = check_records(records)
    print(
        json.dumps(
            {
                "versions": {name: version(name) for name in ("openai", "anthropic", "google-genai", "pydantic")},
                "checked": checked,
                "failures": failures,
                "clients": run_clients(url),
            }
        )
    )


if __name__ == "__main__":
    main()

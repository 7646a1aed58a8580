import type { GenerateResponse } from './generate-response.js';
import type { StreamPart } from './stream-part.js';

/**
 * A complete response as stream parts: for a stream client served by a non-stream upstream.
 * Part ids are the content positions (`0`, `1`, ...), unique within a choice.
 */
export function expandResponseToStreamParts(response: GenerateResponse): StreamPart[] {
  const parts: StreamPart[] = [
    { type: 'start', ...(response.id !== undefined && { id: response.id }), ...(response.model !== undefined && { model: response.model }) },
  ];
  for (const choiceEntry of response.choices) {
    const choice = choiceEntry.index === 0 ? undefined : choiceEntry.index;
    const tag = choice === undefined ? {} : { choice };
    choiceEntry.content.forEach((part, position) => {
      const id = String(position);
      switch (part.type) {
        case 'text':
          // Metadata rides on the start too: an encoder may need it before the text (Gemini parts).
          parts.push({ type: 'text-start', id, ...tag, ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }) });
          if (part.text) parts.push({ type: 'text-delta', id, delta: part.text, ...tag });
          parts.push({ type: 'text-end', id, ...tag, ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }) });
          return;
        case 'reasoning':
          parts.push({
            type: 'reasoning-start',
            id,
            ...tag,
            ...(part.redactedData !== undefined && { redactedData: part.redactedData }),
            ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
          });
          if (part.text) parts.push({ type: 'reasoning-delta', id, delta: part.text, ...tag });
          parts.push({
            type: 'reasoning-end',
            id,
            ...tag,
            ...(part.signature !== undefined && { signature: part.signature }),
            ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
          });
          return;
        case 'tool-call':
          parts.push({ type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName, ...tag, ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }) });
          if (part.input) parts.push({ type: 'tool-input-delta', id: part.toolCallId, delta: part.input, ...tag });
          parts.push({ type: 'tool-input-end', id: part.toolCallId, ...tag });
          parts.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            ...tag,
            ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
          });
          return;
        case 'file':
          if (part.data.type === 'base64') parts.push({ type: 'file', mediaType: part.mediaType, base64: part.data.base64, ...tag });
          return;
        default: {
          const unexpected: never = part;
          throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
        }
      }
    });
  }
  response.choices.forEach((choiceEntry, position) => {
    const last = position === response.choices.length - 1;
    parts.push({
      type: 'finish',
      finishReason: choiceEntry.finishReason,
      // Usage is for the whole response: the last finish carries it.
      usage: last ? response.usage : { input: {}, output: {} },
      ...(choiceEntry.index === 0 ? {} : { choice: choiceEntry.index }),
      ...(last && response.protocolMetadata && { protocolMetadata: response.protocolMetadata }),
    });
  });
  return parts;
}

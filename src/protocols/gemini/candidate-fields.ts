import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * Candidate fields the core has no place for (safety ratings, grounding and citations, logprobs,
 * `finishMessage`). They ride in the response's `protocolMetadata.gemini.candidates` as
 * `[{index, ...fields}]`, so a Gemini client still gets them.
 */
export const GEMINI_CANDIDATE_FIELDS = [
  'safetyRatings', 'citationMetadata', 'groundingMetadata', 'urlContextMetadata', 'finishMessage', 'avgLogprobs', 'logprobsResult', 'tokenCount',
] as const;

const CANDIDATE_FIELD_NAMES: ReadonlySet<string> = new Set(GEMINI_CANDIDATE_FIELDS);

/**
 * Copies the candidate's extra fields into `into` (later chunks override earlier ones). Runs for
 * every streamed record: it walks the candidate's own few keys rather than looking up all eight.
 */
export function collectGeminiCandidateFields(candidate: JsonObject, into: JsonObject): void {
  for (const key in candidate) if (CANDIDATE_FIELD_NAMES.has(key) && candidate[key] !== undefined) into[key] = candidate[key];
}

/** The response-level Gemini metadata: candidate fields and a prompt's block feedback. */
export function buildGeminiResponseMetadata(candidateFields: Map<number, JsonObject>, promptFeedback: unknown): JsonObject | undefined {
  const candidates = [...candidateFields.entries()]
    .filter(([, fields]) => Object.keys(fields).length > 0)
    .sort(([left], [right]) => left - right)
    .map(([index, fields]) => ({ index, ...fields }));
  const metadata: JsonObject = {};
  if (candidates.length > 0) metadata.candidates = candidates;
  if (isJsonObject(promptFeedback)) metadata.promptFeedback = promptFeedback;
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}

/** The extra fields stored for one candidate index, for the encoders. */
export function geminiCandidateFieldsFor(metadata: JsonObject | undefined, index: number): JsonObject {
  const candidates = metadata?.candidates;
  if (!Array.isArray(candidates)) return {};
  const entry = candidates.find((candidate) => isJsonObject(candidate) && candidate.index === index);
  if (!isJsonObject(entry)) return {};
  const { index: _index, ...fields } = entry;
  return fields;
}

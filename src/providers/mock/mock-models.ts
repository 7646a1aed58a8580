/** The built-in offline models. Deterministic, so client code can be tested against them. */
export const MOCK_MODELS = [
  { id: 'mock-echo', description: 'Answers with the text of the last user message.' },
  { id: 'mock-lorem', description: 'Answers with a fixed paragraph of lorem ipsum.' },
  { id: 'mock-slow', description: 'Streams a long answer slowly, one small piece every slowIntervalMs (default 100 ms).' },
  { id: 'mock-tools', description: 'Calls the first offered tool with arguments valid under its schema, then answers with the tool result.' },
  { id: 'mock-cut', description: 'Streams the first words of lorem ipsum, then stops before the end, as an upstream whose connection closes early.' },
  { id: 'mock-fail', description: 'Fails with failStatus (default 503), or with the HTTP status the last user message names.' },
] as const;

export const MOCK_MODEL_IDS: readonly string[] = MOCK_MODELS.map((model) => model.id);

export const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna ' +
  'aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ' +
  'Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur.';

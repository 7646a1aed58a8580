import type { UpstreamTurn } from './read-upstream-request.js';

/** What one scripted answer says, before it is written in a protocol. */
export interface ScriptedAnswer {
  /** Reasoning with a vendor signature (Anthropic thinking, Responses encrypted reasoning, Gemini thoughtSignature). */
  reasoning?: { text: string; signature: string };
  text?: string;
  /** `input` is the arguments object of a function tool, or the raw text of a Responses custom tool. */
  toolCall?: { id: string; name: string; input: Record<string, unknown> | string };
}

/** What the test wants the vendor to do in the current run. */
export interface Script {
  scenario: 'text' | 'tool';
  /** The text answer of the text scenario. */
  answer: string;
  /** The file the tool scenario makes the agent read, and the token it holds. */
  filePath: string;
  fileToken: string;
}

/**
 * The read-file tools of the agents, as they offer them, and the arguments that read `path`.
 * Claude Code: `Read`; Gemini CLI and Qwen Code: `read_file`; opencode: `read`; Codex: `exec_command` (unified exec) or the older
 * `shell` / `shell_command`; Codex on its own catalog models (code mode): the custom `exec` tool, whose
 * input is JavaScript that calls the nested tools (a function `{input}` once translated elsewhere).
 */
const READ_TOOLS: Array<{ name: string; input: (path: string) => Record<string, unknown> | string }> = [
  { name: 'Read', input: (path) => ({ file_path: path }) },
  { name: 'read_file', input: (path) => ({ file_path: path }) },
  { name: 'read', input: (path) => ({ filePath: path }) },
  { name: 'exec_command', input: (path) => ({ cmd: `cat ${path}` }) },
  { name: 'shell_command', input: (path) => ({ command: `cat ${path}` }) },
  { name: 'shell', input: (path) => ({ command: ['cat', path] }) },
  { name: 'exec', input: (path) => codeModeRead(path) },
];

function codeModeRead(path: string): string {
  return `const result = await tools.exec_command({ cmd: ${JSON.stringify(`cat ${path}`)} });\ntext(result);`;
}

/**
 * The vendor's decision for one request: JSON when JSON is asked for (Gemini CLI's router and
 * next-speaker checks), the final answer quoting the tool result once there is one, a call to the
 * agent's read tool in the tool scenario, the scripted text otherwise.
 */
export function decideAnswer(turn: UpstreamTurn, script: Script, serial: number): ScriptedAnswer {
  const signature = Buffer.from(`scripted-signature-${turn.protocol}-${serial}`).toString('base64');
  if (turn.json) return { text: JSON.stringify(sampleFromSchema(turn.json.schema)) };
  if (turn.toolResults.length > 0) {
    const found = turn.toolResults.join('\n').match(/FILE-TOKEN-[A-Za-z0-9]+/);
    return { text: found ? `The file holds ${found[0]} (answered over ${turn.protocol}).` : `No token in the tool result: ${turn.toolResults.join(' ').slice(0, 300)}` };
  }
  if (script.scenario === 'tool') {
    const tool = READ_TOOLS.find((candidate) => turn.toolNames.includes(candidate.name));
    if (!tool) return { text: `The scripted vendor found no read tool among: ${turn.toolNames.join(', ')}` };
    return {
      reasoning: { text: 'The user wants the file read; I will call the read tool.', signature },
      text: 'Reading the file.',
      toolCall: { id: `call_scripted_${serial}`, name: tool.name, input: toolInput(turn, tool.name, tool.input(script.filePath)) },
    };
  }
  return { text: script.answer };
}

/** A custom tool takes the raw text; translated to a function tool it takes `{input}`. */
function toolInput(turn: UpstreamTurn, name: string, input: Record<string, unknown> | string): Record<string, unknown> | string {
  if (typeof input !== 'string') return input;
  return turn.customToolNames.includes(name) ? input : { input };
}

/** A value valid under a (Gemini upper-case or JSON Schema lower-case) schema: enough for the agents' strict parsers. */
export function sampleFromSchema(schema: any): unknown {
  if (!schema || typeof schema !== 'object') return {};
  const type = String(schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    // Gemini CLI's next-speaker check: 'user' ends the turn ('model' would make it go on).
    return schema.enum.includes('user') ? 'user' : schema.enum[0];
  }
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleFromSchema(value)]));
    case 'array':
      return [sampleFromSchema(schema.items)];
    case 'integer':
    case 'number':
      return Math.max(Number(schema.minimum ?? 10), 10);
    case 'boolean':
      return false;
    default:
      return 'scripted';
  }
}

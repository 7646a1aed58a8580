import type { Protocol } from '../core/protocol.js';
import type { DisconnectPolicy } from './config-types.js';

export interface ProviderPreset {
  type: Protocol;
  baseURL: string;
  /** The environment variable that creates this provider when set. */
  apiKeyEnv?: readonly string[];
  /** Local GPU servers cancel a generation nobody reads; paid APIs leave it to `recoveries.onDisconnect` (drain). */
  onDisconnect?: DisconnectPolicy;
}

/**
 * Well-known upstreams. `baseURL` follows each official SDK: OpenAI-style URLs include `/v1`,
 * Anthropic and Gemini do not (the codec adds `/v1/messages`, `/v1beta/models/...`).
 */
export const PROVIDER_PRESETS: Record<string, ProviderPreset> = {
  openai: { type: 'openai-chat', baseURL: 'https://api.openai.com/v1', apiKeyEnv: ['OPENAI_API_KEY'] },
  anthropic: { type: 'anthropic-messages', baseURL: 'https://api.anthropic.com', apiKeyEnv: ['ANTHROPIC_API_KEY'] },
  gemini: { type: 'gemini', baseURL: 'https://generativelanguage.googleapis.com', apiKeyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'] },
  openrouter: { type: 'openai-chat', baseURL: 'https://openrouter.ai/api/v1', apiKeyEnv: ['OPENROUTER_API_KEY'] },
  deepseek: { type: 'openai-chat', baseURL: 'https://api.deepseek.com/v1' },
  groq: { type: 'openai-chat', baseURL: 'https://api.groq.com/openai/v1' },
  mistral: { type: 'openai-chat', baseURL: 'https://api.mistral.ai/v1' },
  together: { type: 'openai-chat', baseURL: 'https://api.together.xyz/v1' },
  xai: { type: 'openai-chat', baseURL: 'https://api.x.ai/v1' },
  ollama: { type: 'openai-chat', baseURL: 'http://127.0.0.1:11434/v1', onDisconnect: 'cancel' },
  lmstudio: { type: 'openai-chat', baseURL: 'http://127.0.0.1:1234/v1', onDisconnect: 'cancel' },
  vllm: { type: 'openai-chat', baseURL: 'http://127.0.0.1:8000/v1', onDisconnect: 'cancel' },
};

/** Providers created from environment variables, in this order, when the config has none of that id. */
export const ENVIRONMENT_PRESETS = ['openai', 'anthropic', 'gemini', 'openrouter'] as const;

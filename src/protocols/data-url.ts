import type { FileData } from '../core/content-part.js';

/** `data:image/png;base64,AAAA` → media type and base64; undefined for other URLs. */
export function parseDataUrl(url: string): { mediaType: string; base64: string } | undefined {
  const match = /^data:([^;,]*)(?:;[^,]*)?;base64,/i.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] || 'application/octet-stream', base64: url.slice(match[0].length) };
}

export function toDataUrl(mediaType: string, base64: string): string {
  return `data:${mediaType};base64,${base64}`;
}

/** A URL (remote or data:) as FileData, with the media type when the URL says it. */
export function convertUrlToFileData(url: string, fallbackMediaType: string): { mediaType: string; data: FileData } {
  const inline = parseDataUrl(url);
  if (inline) return { mediaType: inline.mediaType, data: { type: 'base64', base64: inline.base64 } };
  return { mediaType: fallbackMediaType, data: { type: 'url', url } };
}

/** FileData as a URL string (OpenAI `image_url.url`, Responses `image_url`). */
export function convertFileDataToUrl(mediaType: string, data: FileData): string {
  return data.type === 'url' ? data.url : toDataUrl(mediaType, data.base64);
}

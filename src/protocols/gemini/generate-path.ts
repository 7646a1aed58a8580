/**
 * The upstream path of a generation: `/v1beta/models/{model}:generateContent`, or
 * `:streamGenerateContent?alt=sse` (without `alt=sse` Google streams a JSON array instead of SSE).
 * Names that already carry their collection (`models/…`, `tunedModels/…`) keep it.
 */
export function geminiGeneratePath(model: string, stream: boolean, extraQuery = ''): string {
  const resource = /^(models|tunedModels)\//.test(model) ? model : `models/${model}`;
  const query = [stream ? 'alt=sse' : '', extraQuery].filter(Boolean).join('&');
  return `/v1beta/${resource}:${stream ? 'streamGenerateContent' : 'generateContent'}${query ? `?${query}` : ''}`;
}

/**
 * The upstream path of a generation: `/v1beta/models/{model}:generateContent`, or
 * `:streamGenerateContent?alt=sse` (without `alt=sse` Google streams a JSON array instead of SSE).
 * Names that already carry their collection (`models/…`, `tunedModels/…`) keep it.
 */
export function geminiGeneratePath(model: string, stream: boolean, extraQuery = ''): string {
  // The name is the client's text: a space or a line break in it would make no request at all.
  const name = /^[\w./@-]*$/.test(model) ? model : model.split('/').map(encodeURIComponent).join('/');
  const resource = /^(models|tunedModels)\//.test(name) ? name : `models/${name}`;
  const query = [stream ? 'alt=sse' : '', extraQuery].filter(Boolean).join('&');
  return `/v1beta/${resource}:${stream ? 'streamGenerateContent' : 'generateContent'}${query ? `?${query}` : ''}`;
}

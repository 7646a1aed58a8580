/** A JSON Schema object, passed through as the client wrote it. */
export type JSONSchema = Record<string, unknown>;

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

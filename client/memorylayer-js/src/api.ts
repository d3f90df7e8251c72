// The API's types: every schema of the server's OpenAPI document, as openapi-typescript renders it into
// ./openapi.ts (generated and checked in: `npm run generate`), and the `Operations` map the client's calls are
// typed by, derived here from its `paths`.

import type { paths } from "./openapi.js";

export type * from "./openapi.js";

type Method = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
// openapi-typescript declares every method of a path, the absent ones as `method?: never`.
type Defined<T> = Exclude<T, undefined>;
type Declared<T> = [Defined<T>] extends [never] ? never : Defined<T>;

/** An operation's key, e.g. `"POST /v1/memories"`. */
export type OperationKey = {
  [P in keyof paths & string]: {
    [M in Method]: Declared<paths[P][M]> extends never ? never : `${Uppercase<M>} ${P}`;
  }[Method];
}[keyof paths & string];

type OperationOf<K extends OperationKey> = K extends `${infer M} ${infer P}`
  ? Lowercase<M> extends infer L extends Method
    ? P extends keyof paths
      ? Defined<paths[P][L]>
      : never
    : never
  : never;

/** A request or answer body by its media types: JSON and forms typed, text (if offered) a string, else bytes. */
type Payload<C> = C extends { "application/json": infer T }
  ? T
  : C extends { "multipart/form-data": infer T }
    ? T
    : [Extract<keyof C, `text/${string}` | "application/x-ndjson">] extends [never]
      ? ArrayBuffer
      : string;

type Parameters<O, Where extends "path" | "query"> = O extends { parameters: infer P }
  ? P extends { [W in Where]?: infer T }
    ? Declared<T>
    : never
  : never;

type RequestBody<O> = O extends { requestBody?: infer R }
  ? [Defined<R>] extends [never]
    ? never
    : Defined<R> extends { content: infer C }
      ? Payload<C>
      : never
  : never;

/** The first success status (in numeric order) that has a body, as the old `response` was. */
type Answer<R, Codes extends number[]> = Codes extends [infer C extends number, ...infer Rest extends number[]]
  ? R extends { [S in C]: { content: infer X } }
    ? Payload<X>
    : Answer<R, Rest>
  : void;

/** Every operation, by "METHOD /path": its path and query parameters, JSON body and success answer. */
export type Operations = {
  [K in OperationKey]: {
    path: Parameters<OperationOf<K>, "path">;
    query: Parameters<OperationOf<K>, "query">;
    body: RequestBody<OperationOf<K>>;
    bodyRequired: OperationOf<K> extends { requestBody: object } ? true : false;
    response: OperationOf<K> extends { responses: infer R } ? Answer<R, [200, 201, 202, 203, 204, 205, 206, 207]> : void;
  };
};

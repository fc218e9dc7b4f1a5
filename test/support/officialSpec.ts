/**
 * The operations of the service's public OpenAPI document (caver-js-ext-kas 1.12,
 * yamls/wallet/2021-09-29-openapi-versioned.yaml, Apache-2.0): what of each operation the operation
 * table must agree with — method, path, operation id, parameters, whether it takes a body, the
 * codes its 400 examples show. `te../fixtures/spec/official-wallet-operations.json` holds them, so that
 * `npm test` needs neither the package nor the network; `npm run conformance`, which installs the
 * package, checks the fixture against the document itself.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/** One operation of the document. */
export interface SpecOperation {
  readonly operationId: string
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: string
  readonly parameters: ReadonlyArray<{ readonly in: "header" | "path" | "query"; readonly name: string; readonly required: boolean }>
  readonly body: boolean
  /** The KAS codes of its 400 examples, ascending. */
  readonly codes: ReadonlyArray<number>
}

const METHODS = ["get", "post", "put", "delete"] as const

/** The operations of a parsed document, in its order. */
export const operationsOf = (document: unknown): ReadonlyArray<SpecOperation> => {
  const paths = (document as { readonly paths: Record<string, Record<string, any>> }).paths
  const out: Array<SpecOperation> = []
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (op === undefined) continue
      const codes = new Set<number>()
      for (const match of JSON.stringify(op.responses?.["400"] ?? {}).matchAll(/"code":\s*(\d{7})/g)) codes.add(Number(match[1]))
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase() as SpecOperation["method"],
        path,
        parameters: (op.parameters ?? []).map((p: any) => ({ in: p.in, name: p.name, required: p.required === true })),
        body: op.requestBody !== undefined,
        codes: [...codes].sort((a, b) => a - b)
      })
    }
  }
  return out
}

/** Where the fixture is. */
export const fixturePath = fileURLToPath(new URL("../fixtures/spec/official-wallet-operations.json", import.meta.url))

/** The fixture's operations. */
export const official = (): ReadonlyArray<SpecOperation> => JSON.parse(readFileSync(fixturePath, "utf8"))

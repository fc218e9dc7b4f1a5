import { fileURLToPath } from "node:url"
import { configFor } from "../../vitest.config.js"

export default configFor(fileURLToPath(new URL(".", import.meta.url)), ["test/**/*.test.ts"])

// The `flexmd` CLI the tests compare with: FLEXMD_BIN, else the
// workspace's debug build. (Not a test file: it holds no tests.)
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The workspace's root, with a trailing slash. */
export const root = fileURLToPath(new URL("../../../", import.meta.url));
/** The CLI's path. */
export const bin = process.env.FLEXMD_BIN ?? `${root}target/debug/flexmd`;

/** The JSON the CLI prints for `args`, run from the root; exit 1 (read, but nothing found or invalid) prints it too. */
export function cliJson(args) {
  try {
    return JSON.parse(execFileSync(bin, args, { cwd: root, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] }));
  } catch (error) {
    if (error.status !== 1) throw error;
    return JSON.parse(error.stdout);
  }
}

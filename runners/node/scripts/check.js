// The runner's check (`make test`): `node --check` (syntax only, no execution)
// on every source file, then `prettier --check` with the pinned devDependency.

import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const root = new URL("..", import.meta.url);
const files = ["", "scripts/"].flatMap((dir) =>
  readdirSync(new URL(dir, root))
    .filter((name) => /\.m?js$/.test(name))
    .map((name) => new URL(dir + name, root).pathname),
);
for (const file of files) execFileSync(process.execPath, ["--check", file], { stdio: "inherit" });
console.log(`node --check: ${files.length} files ok`);

const prettier = new URL("node_modules/prettier/bin/prettier.cjs", root).pathname;
if (!existsSync(prettier)) {
  console.error("prettier is not installed: run make setup (npm ci)");
  process.exit(1);
}
try {
  execFileSync(process.execPath, [prettier, "--check", "."], { cwd: root, stdio: "inherit" });
} catch {
  process.exit(1);
}

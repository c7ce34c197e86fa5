// Drives presenter-host from Node: starts `presenter-host drive` and writes
// the protocol's JSON lines to it (docs/DRIVER.md).
//   node Examples/driver/get-title.mjs [path/to/presenter-host]
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

const drive = spawn(process.argv[2] ?? "presenter-host", ["drive"], { stdio: ["pipe", "inherit", "inherit"] });
const send = (request) => drive.stdin.write(JSON.stringify(request) + "\n");

send({ start: "t1", action: "get-title", working: "Getting the title..." });
for (let step = 1; step <= 4; step++) {
    await sleep(200);
    send({ progress: "t1", fraction: step / 4, message: `Reading part ${step} of 4` });
}
send({ succeed: "t1", message: "Title: Example Domain" });
drive.stdin.end();
drive.on("exit", (code) => process.exit(code ?? 1));

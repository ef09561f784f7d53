// snarkjs_verify_batch.cjs: run many `snarkjs groth16 verify` checks in one
// node process (each CLI call costs about a second of node start-up and
// curve set-up on a small machine).
//
//   node tests/snarkjs_verify_batch.cjs LIST
//
// LIST has one check a line: "vk.json<TAB>public.json<TAB>proof.json".
// Prints one line per check: 0 (valid) or 1 (invalid), the exit status
// `snarkjs groth16 verify` gives for it. Like the CLI it calls snarkjs's
// groth16.verify, and counts an exception (unreadable JSON, bad point) as
// invalid.
"use strict";
const fs = require("fs");
const path = require("path");

const snarkjs = require(path.join(__dirname, "..", "tools", "oracle", "node_modules", "snarkjs"));
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

async function main() {
    const lines = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((l) => l.length);
    for (const line of lines) {
        const [vk, pub, proof] = line.split("\t");
        let ok = false;
        try {
            ok = await snarkjs.groth16.verify(
                JSON.parse(fs.readFileSync(vk, "utf8")),
                JSON.parse(fs.readFileSync(pub, "utf8")),
                JSON.parse(fs.readFileSync(proof, "utf8")),
                quiet);
        } catch (e) {
            ok = false;
        }
        console.log(ok === true ? "0" : "1");
    }
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(3); });

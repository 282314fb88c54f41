import { readFileSync, readdirSync } from "node:fs";
import { register } from "tsx/esm/api";
register();
const { parseSource } = await import("../../lib/domain/formats/index.ts");
const { RunDetector } = await import("../../lib/domain/detector/index.ts");
const dir = process.argv[2];
const files = readdirSync(dir, { recursive: true }).filter((f) => /\.(json|jsonl|traj|md)$/.test(f) && !/FORMAT|PROVENANCE|report/.test(f)).map((f) => readFileSync(dir + "/" + f));
async function* ch(b){for(let i=0;i<b.length;i+=65536) yield b.subarray(i,i+65536);}
let t=Date.now(), bytes=0;
for (let r=0;r<Number(process.argv[3]);r++) for (const b of files) { bytes+=b.length; const d=new Map(); for await (const it of parseSource(ch(b),{sourceKey:"x.traj.json"})) { if(it.kind!=="event") continue; let x=d.get(it.event.runId); if(!x) d.set(it.event.runId,x=new RunDetector()); x.feed(it.event);} }
const dt=Date.now()-t; t=Date.now();
for (let r=0;r<Number(process.argv[3]);r++) for (const b of files) { const s=b.toString(); if (s.trimStart().startsWith("{\n")||s.trimStart().startsWith("[")) JSON.parse(s); else for (const l of s.split("\n")) if (l.startsWith("{")) JSON.parse(l); }
console.log("detect", (bytes/1e3/dt).toFixed(1), "MB/s; parse", (bytes/1e3/(Date.now()-t)).toFixed(1), "MB/s");

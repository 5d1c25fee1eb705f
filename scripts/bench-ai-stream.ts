/** `npm run bench:ai`: the AI stream phase of `npm run bench` alone (scripts/bench/streams.ts); needs `npm run build`. */
import { runStreamsPhase } from "./bench/streams";

console.log(
  await runStreamsPhase({
    chunks: Number(process.env.BENCH_CHUNKS ?? 40),
    paceMs: Number(process.env.BENCH_PACE_MS ?? 25),
    samples: Number(process.env.BENCH_SAMPLES ?? 20),
    concurrent: Number(process.env.BENCH_CONCURRENT ?? 500),
  }),
);

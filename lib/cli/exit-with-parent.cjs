// Preloaded into the Next.js server that `loopscope serve` starts: when the
// wrapper process is gone (even SIGKILLed, which it cannot forward), the
// server exits too instead of holding the port as an orphan.
const parent = Number(process.env.LOOPSCOPE_PARENT_PID);
if (Number.isInteger(parent) && parent > 1) {
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      process.exit(0);
    }
  }, 500);
  timer.unref();
}

// Preloaded into the chaos suite's service children. A child must not outlive the test process
// that started it: when that process is killed outright (a Jest worker force-killed at a timeout),
// its exit hook never runs, and the child would go on consuming the suite's queues for as long as
// the machine runs. The child is re-parented when its parent dies; it then exits.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 500).unref();

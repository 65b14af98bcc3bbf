// Prints its environment and working directory as JSON. It is in
// JavaScript because node, unlike a pyenv shim or a shell, adds nothing to
// the environment it reports.
console.log(JSON.stringify({ env: process.env, cwd: process.cwd() }));

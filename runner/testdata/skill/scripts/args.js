// No #! line: runs through node because of its extension.
// Prints its arguments as a JSON list, to show they arrive verbatim.
console.log(JSON.stringify(process.argv.slice(2)));

// An ES module with no #! line: runs through node because of its extension.
console.log(`hello from ${process.env.SKILL_NAME}`);

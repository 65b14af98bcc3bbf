#!/usr/bin/env node
// The $BROWSER of the conformance run: it opens the login page it is given
// as a browser would, following the redirects, which end at toolsearch's
// own callback on 127.0.0.1. The test authorization servers approve
// without asking anyone.
const url = process.argv[2];
fetch(url, { redirect: "follow" })
  .then(async (res) => {
    await res.text();
    if (!res.ok) {
      console.error(`fetch-browser: ${res.status} ${res.statusText} from ${res.url}`);
      process.exit(1);
    }
  })
  .catch((err) => {
    console.error(`fetch-browser: ${err.message}`);
    process.exit(1);
  });

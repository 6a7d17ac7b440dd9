// Runs a solution page's own script in node, with the little of a browser
// it touches stood in for, once per fragment the page is opened with:
//   node page_in_node.js PAGE FRAGMENT...
// One line per fragment, tab-separated: the fragment's length, the
// position shown (board's data-shown), the number of cards drawn, and the
// error the script threw ('-' when none).
'use strict';
const fs = require('fs');

const html = fs.readFileSync(process.argv[2], 'utf8');
const data = html.match(/<script id="data" type="application\/json">([\s\S]*?)<\/script>/)[1];
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const script = scripts[scripts.length - 1];

function open(fragment) {
  const elements = {};
  const element = (id) => (elements[id] = elements[id] || {
    id, style: { setProperty() {} }, dataset: {}, textContent: '', innerHTML: '',
    hidden: false, disabled: false, value: 0, max: 0, addEventListener() {}, click() {},
  });
  globalThis.document = {
    getElementById: (id) => (id === 'data' ? { textContent: data } : element(id)),
    addEventListener() {},
    body: { dataset: {} },
  };
  globalThis.location = { hash: fragment };
  globalThis.history = { replaceState() {} };
  globalThis.window = { addEventListener() {} };
  let error = '-';
  try {
    new Function(script)();
  } catch (e) {
    error = String(e).replace(/\s+/g, ' ');
  }
  const board = element('board');
  const cards = (board.innerHTML.match(/data-card="/g) || []).length;
  return [fragment.length, board.dataset.shown, cards, error].join('\t');
}

for (const fragment of process.argv.slice(3)) console.log(open(fragment));

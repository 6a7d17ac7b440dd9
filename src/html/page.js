'use strict';
// Draws the replay computed by xpat-solver (the JSON in #data): the start
// position, then per move its single-card steps [card, from pile, to pile]
// in xpat2's pile numbering (4 foundations by suit, the columns, the free
// cells). The script works nothing out about the game; it applies steps.
(function () {
  const D = JSON.parse(document.getElementById('data').textContent);
  const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
  const SUITS = ['\u2663', '\u2660', '\u2665', '\u2666'];
  const rank = (c) => Math.floor(c / 4);
  const suit = (c) => c % 4;
  const name = (c) => RANKS[rank(c)] + SUITS[suit(c)];
  const FOUNDATIONS = 4;
  const firstCell = FOUNDATIONS + D.columns;
  const kind = (p) => (p < FOUNDATIONS ? 'foundation' : p < firstCell ? 'column' : 'cell');

  // The position shown, one pile per array, moved a move at a time:
  // forward plays a move's changes, back undoes them. A change is a step
  // [card, from, to] (a card from a pile's top to another's) or a rewrite
  // [pile, cards before, cards after, marked card?] (a redeal's or a turn's
  // column). No copy of every position is kept: a page may replay a hundred
  // thousand moves.
  const piles = D.start.map((p) => p.slice());
  const n = D.moves.length;
  const isRewrite = (change) => Array.isArray(change[1]);
  const same = (a, b) => a.length === b.length && a.every((c, i) => c === b[i]);
  let at = 0;
  function rewrite(pile, from, to, k) {
    if (!same(piles[pile], from)) {
      throw new Error('move ' + k + ': pile ' + pile + ' is not as the move found it');
    }
    piles[pile] = to.slice();
  }
  function forward() {
    for (const change of D.moves[at]) {
      if (isRewrite(change)) {
        rewrite(change[0], change[1], change[2], at + 1);
        continue;
      }
      const [card, from, to] = change;
      const top = piles[from].pop();
      if (top !== card) {
        throw new Error('move ' + (at + 1) + ': ' + name(card) + ' is not on top of pile ' + from);
      }
      piles[to].push(card);
    }
    at += 1;
  }
  function back() {
    at -= 1;
    const changes = D.moves[at];
    for (let i = changes.length - 1; i >= 0; i--) {
      const change = changes[i];
      if (isRewrite(change)) {
        rewrite(change[0], change[2], change[1], at + 1);
        continue;
      }
      const [card, from, to] = change;
      if (piles[to].pop() !== card) {
        throw new Error('move ' + (at + 1) + ': ' + name(card) + ' is not on top of pile ' + to);
      }
      piles[from].push(card);
    }
  }
  function goTo(k) {
    while (at < k) forward();
    while (at > k) back();
  }

  // The longest column over the whole replay: of the first row (columns
  // 1, 3, ...), of the second, of all. Going through every move once also
  // checks every step: one that does not fit is an error.
  const tallest = [1, 1, 1];
  function measure() {
    for (let i = 0; i < D.columns; i++) {
      const len = piles[FOUNDATIONS + i].length;
      tallest[i % 2] = Math.max(tallest[i % 2], len);
      tallest[2] = Math.max(tallest[2], len);
    }
  }
  measure();
  while (at < n) { forward(); measure(); }
  goTo(0);

  // Geometry. A column's cards overlap by `fan` pixels, less in a row whose
  // longest column (over the whole replay) would grow too tall.
  const CW = 78, CH = 108, GAP = 12, SLOT = CW + GAP, ROW_GAP = 20;
  const longest = (band) => (D.layout === 'top' ? tallest[2] : tallest[band]);
  const fanFor = (len) => Math.max(14, Math.min(26, Math.floor(430 / Math.max(1, len - 1))));
  const LABEL = 20;  // room for the words above the free cells and foundations
  const place = [];  // per pile: [left, top, fan]
  const labels = [];  // [left, top, words]
  let width, height;
  if (D.layout === 'top') {
    const fan = fanFor(longest(0));
    const foundationsLeft = (D.columns - FOUNDATIONS) * SLOT;
    for (let s = 0; s < FOUNDATIONS; s++) place[s] = [foundationsLeft + s * SLOT, LABEL, 0];
    for (let i = 0; i < D.columns; i++) place[FOUNDATIONS + i] = [i * SLOT, LABEL + CH + ROW_GAP, fan];
    for (let i = 0; i < D.cells; i++) place[firstCell + i] = [i * SLOT, LABEL, 0];
    labels.push([0, 0, 'free cells'], [foundationsLeft, 0, 'foundation']);
    width = D.columns * SLOT - GAP;
    height = LABEL + CH + ROW_GAP + CH + fan * (longest(0) - 1);
  } else {
    const perRow = Math.ceil(D.columns / 2);
    const fans = [fanFor(longest(0)), fanFor(longest(1))];
    const bandHeight = [0, 1].map((b) => CH + fans[b] * (longest(b) - 1));
    const bandTop = [0, bandHeight[0] + ROW_GAP];
    for (let i = 0; i < D.columns; i++) {
      const b = i % 2;
      place[FOUNDATIONS + i] = [Math.floor(i / 2) * SLOT, bandTop[b], fans[b]];
    }
    const foundationsLeft = perRow * SLOT + GAP;
    for (let s = 0; s < FOUNDATIONS; s++) place[s] = [foundationsLeft, LABEL + s * (CH + GAP), 0];
    labels.push([foundationsLeft, 0, 'foundation']);
    width = (perRow + 1) * SLOT;
    height = Math.max(bandTop[1] + bandHeight[1], LABEL + FOUNDATIONS * (CH + GAP));
  }

  const board = document.getElementById('board');
  board.style.setProperty('--cw', CW + 'px');
  board.style.setProperty('--ch', CH + 'px');
  board.style.width = width + 'px';
  board.style.height = height + 'px';

  function cardHtml(c, top, extra) {
    const r = RANKS[rank(c)], s = SUITS[suit(c)];
    const court = rank(c) >= 10;
    const face = court ? '<span class="face court">' + r + '<small>' + s + '</small></span>'
      : '<span class="face">' + s + '</span>';
    return '<div class="card ' + (suit(c) >= 2 ? 'red' : 'black') + extra + '" data-card="' + c +
      '" title="' + name(c) + '" style="top:' + top + 'px"><span class="index">' + r + s +
      '</span>' + face + '<span class="index bottom">' + r + s + '</span></div>';
  }

  function draw(k) {
    goTo(k);
    const pos = piles;
    const changes = k > 0 ? D.moves[k - 1] : [];
    const steps = changes.filter((c) => !isRewrite(c));
    // The card the move moved: a step's, or the one a turn marks; a
    // redeal marks none.
    const first = changes.length > 0 ? changes[0] : [];
    const moved = !isRewrite(first) ? first[0] : first.length > 3 ? first[3] : -1;
    const up = new Set(steps.filter((s) => s[2] < FOUNDATIONS).map((s) => s[0]));
    if (k === 0) D.startUp.forEach((c) => up.add(c));
    let html = labels.map(([left, top, words]) =>
      '<div class="label" style="left:' + left + 'px;top:' + top + 'px">' + words + '</div>').join('');
    pos.forEach((cards, p) => {
      const [left, top, fan] = place[p];
      const what = kind(p);
      const index = what === 'foundation' ? p : what === 'column' ? p - FOUNDATIONS : p - firstCell;
      const tall = what === 'column' ? CH + fan * Math.max(0, cards.length - 1) : CH;
      const look = what === 'column' ? (cards.length ? '' : ' empty') : ' slot';
      html += '<div class="pile ' + what + look + '" data-pile="' +
        what + '" data-index="' + index + '" style="left:' + left + 'px;top:' + top +
        'px;height:' + tall + 'px">';
      if (what === 'foundation' && cards.length === 0) html += '<span class="mark">' + SUITS[p] + '</span>';
      cards.forEach((c, j) => {
        const extra = c === moved ? ' moved' : up.has(c) && j === cards.length - 1 ? ' up' : '';
        html += cardHtml(c, what === 'column' ? j * fan : 0, extra);
      });
      html += '</div>';
    });
    board.innerHTML = html;
  }

  const $ = (id) => document.getElementById(id);
  const slider = $('slider');
  slider.max = n;
  $('n').textContent = n;
  if (D.table) {
    $('table-status').hidden = false;
    $('redeals').textContent = D.table.redeals;
    $('turns').textContent = D.table.turns;
  }
  if (D.stopped) {
    $('stopped').hidden = false;
    $('stopped').textContent = 'The replay stops here: ' + D.stopped + '.';
  }

  function startWords() {
    const up = D.startUp.map(name).join(' ');
    return 'The deal' + (up ? ', with ' + up + ' played to the foundation at once' : '') + '.';
  }

  let shown = 0;
  function show(k, updateAddress) {
    k = Math.max(0, Math.min(n, k));
    shown = k;
    draw(k);
    slider.value = k;
    $('k').textContent = k;
    $('words').textContent = k === 0 ? startWords() : 'Move ' + k + ': ' + D.words[k - 1] + '.';
    $('foundation-count').textContent = piles.slice(0, FOUNDATIONS)
      .reduce((sum, p) => sum + p.length, 0);
    if (D.table) {
      const spent = (moves) => moves.filter((m) => m <= k).length;
      $('redeals-left').textContent = D.table.redeals - spent(D.table.redealAt);
      $('turns-left').textContent = D.table.turns - spent(D.table.turnAt);
    }
    board.dataset.shown = k;
    $('first').disabled = $('prev').disabled = k === 0;
    $('next').disabled = $('last').disabled = k === n;
    if (updateAddress) {
      try { history.replaceState(null, '', '#' + (k === n ? 'end' : k)); } catch (e) { /* file: pages may refuse */ }
    }
  }

  let timer = null;
  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $('play').innerHTML = '&#9654; play';
  }
  function play() {
    if (shown === n) show(0, true);
    $('play').innerHTML = '&#10074;&#10074; pause';
    timer = setInterval(() => {
      if (shown >= n) pause(); else show(shown + 1, true);
    }, 600);
  }
  const step = (k) => { pause(); show(k, true); };

  $('first').onclick = () => step(0);
  $('prev').onclick = () => step(shown - 1);
  $('next').onclick = () => step(shown + 1);
  $('last').onclick = () => step(n);
  $('play').onclick = () => (timer === null ? play() : pause());
  slider.oninput = () => step(Number(slider.value));
  document.addEventListener('keydown', (e) => {
    if (e.target === slider && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) return;
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: n }[e.key];
    if (to !== undefined) { step(to); e.preventDefault(); }
    // A focused button clicks itself on space; anywhere else space plays.
    if (e.key === ' ' && e.target.tagName !== 'BUTTON') { $('play').click(); e.preventDefault(); }
  });

  // The position the address names: #k after move k (past the last: the
  // last), #end the last; any other fragment (#, #-1, #abc, #%, #end#x)
  // the deal. Read as it is, not decoded: decodeURIComponent throws on a
  // stray '%', and no fragment the page writes needs decoding.
  function fromAddress() {
    const h = location.hash.slice(1);
    if (h === 'end') return n;
    return /^[0-9]+$/.test(h) ? Math.min(Number(h), n) : 0;
  }
  window.addEventListener('hashchange', () => { pause(); show(fromAddress(), false); });
  show(fromAddress(), false);
  // How long the page took to be ready, for scripts (scripts/html-check).
  document.body.dataset.readyMs = Math.round(performance.now());
})();

// The page's behaviour, one file for every page (served at _codelabgen/page.js, cached by the
// browser, so it is not repeated in each page's HTML): search dialog, menu drawer, lazily filled
// sidebar modules, scrollable code regions, table of contents, theme toggle. The theme is set by a
// tiny inline script in the head (no flash); mermaid's fallback loads only where needed.
// site dev swaps a page's body in place and runs this file again (site/components/DevLive.astro),
// aborting this first: the listeners added to window and to media queries go with the old body.
var scoped = { signal: (window.codelabgenScripts = window.codelabgenScripts || new AbortController()).signal };
(function () {
  var d = document.querySelector('.search-dialog');
  if (!d) return;
  var input = d.querySelector('input'),
    list = d.querySelector('.search-results'),
    status = d.querySelector('.search-status'),
    pf = null,
    seq = 0,
    // A list replaced between a reader's press on a result and its release makes no click (the press and
    // the release land on different links): new results wait while a pointer is down on the list.
    pressed = false,
    pending = null;
  if (/Mac|iPhone|iPad/.test(navigator.platform)) document.querySelector('.search-kbd').textContent = '⌘K';
  function open() {
    if (d.open) return;
    d.showModal();
    input.select();
    if (!pf)
      pf = import(d.dataset.bundle + 'pagefind.js')
        .then(function (m) {
          return m
            .options({ baseUrl: d.dataset.base })
            .then(function () {
              return m.init();
            })
            .then(function () {
              return m;
            });
        })
        .catch(function () {
          status.textContent = 'The search index is not available (it is built by codelabgen site build).';
          return null;
        });
  }
  function text(html) {
    var t = document.createElement('template');
    t.innerHTML = html;
    return t.content.textContent;
  }
  // A heading's name: text pieces, every odd one inline code. The page's "headings" meta has them where
  // pagefind's plain text loses the code or repeats the lesson's title (site/routes/lessons/[lesson].astro).
  function name(el, pieces) {
    pieces.forEach(function (s, i) {
      if (i % 2) {
        var c = document.createElement('code');
        c.textContent = s;
        el.append(c);
      } else if (s) el.append(s);
    });
  }
  function level(a) {
    return a && /^h[1-6]$/i.test(a.element) ? +a.element[1] : 0;
  }
  // Where the words are, best first: in the page's title (the lesson's name), in a heading (pagefind weighs
  // heading words above 1), in the prose only.
  function words(q) {
    return q
      .toLowerCase()
      .split(/[^\p{L}\p{N}_]+/u)
      .filter(Boolean);
  }
  // A files page is titled by its lesson's title too: it counts by its headings (the files' names) only.
  function titled(r, terms) {
    if (r.meta && r.meta.kind === 'files') return false;
    var t = ' ' + text((r.meta && r.meta.title) || '').toLowerCase();
    return (
      terms.length > 0 &&
      terms.every(function (w) {
        return new RegExp('[^\\p{L}\\p{N}_]' + w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'u').test(t);
      })
    );
  }
  // How specific a place is, most first: a section (not the page's top) before the page, one whose heading
  // matched (its words weigh more than prose), the deeper one, the one with the most weight of matches.
  function key(s) {
    var d = s.url.indexOf('#') > 0 ? level(s.anchor) : 0,
      w = s.weighted_locations || [];
    return [
      d > 1 ? 1 : 0,
      w.some(function (l) {
        return l.weight > 1;
      })
        ? 1
        : 0,
      d,
      w.reduce(function (t, l) {
        return t + l.weight;
      }, 0) || (s.locations || []).length,
    ];
  }
  function before(x, y) {
    for (var i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] > y[i];
    return false;
  }
  // A result is a place: the page's most specific section (pagefind's sub-result), titled by its heading path "lesson › h2 › h3".
  function place(r, order, terms) {
    var names = {},
      best = null,
      heads = (r.anchors || []).filter(function (a) {
        return level(a) > 1;
      });
    try {
      names = JSON.parse((r.meta && r.meta.headings) || '{}');
    } catch {
      // A page without the headings meta: results keep pagefind's own titles.
    }
    (r.sub_results || []).forEach(function (s) {
      var k = key(s);
      if (!best || before(k, best.key)) best = { s: s, key: k };
    });
    var li = document.createElement('li'),
      a = document.createElement('a'),
      b = document.createElement('strong'),
      p = document.createElement('span'),
      path = [];
    var title = titled(r, terms),
      heading = (r.sub_results || []).some(function (s) {
        return key(s)[1] === 1;
      });
    if (best && best.key[0]) {
      var k = heads.findIndex(function (h) {
          return h.id === best.s.anchor.id && h.location === best.s.anchor.location;
        }),
        lv = best.key[2];
      if (k < 0) path = [best.s.anchor];
      for (var j = k; j >= 0; j--)
        if (j === k || level(heads[j]) < lv) {
          path.unshift(heads[j]);
          lv = level(heads[j]);
        }
    }
    name(b, names._top || [text((r.meta && r.meta.title) || r.url)]);
    path.forEach(function (h) {
      b.append(' › ');
      name(b, names[h.id] || [h.text]);
    });
    a.href = path.length > 0 ? best.s.url : r.url;
    p.className = 'search-excerpt';
    p.innerHTML = path.length > 0 ? best.s.excerpt : r.excerpt;
    a.append(b, p);
    li.append(a);
    return { li: li, key: [title ? 2 : heading ? 1 : 0].concat(best ? best.key : [0, 0, 0, 0], -order) };
  }
  function search() {
    var q = input.value.trim(),
      n = ++seq;
    if (!q) {
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    pf.then(function (m) {
      return m && m.debouncedSearch(q, {}, 120);
    }).then(function (res) {
      if (!res || n !== seq) return;
      return Promise.all(
        res.results.slice(0, 8).map(function (r) {
          return r.data();
        }),
      ).then(function (data) {
        if (n !== seq) return;
        if (pressed) {
          pending = search;
          return;
        }
        // Results that arrive while a reader is already in the list (ArrowDown on the last query's) keep the focus there.
        var inList = list.contains(document.activeElement);
        // Title matches, then heading matches, then prose; within each the most specific place first (then pagefind's order).
        var terms = words(q),
          places = data
            .map(function (r, i) {
              return place(r, i, terms);
            })
            .sort(function (x, y) {
              return before(x.key, y.key) ? -1 : before(y.key, x.key) ? 1 : 0;
            });
        list.replaceChildren.apply(
          list,
          places.map(function (x) {
            return x.li;
          }),
        );
        if (inList) (list.querySelector('a') || input).focus();
        status.textContent =
          res.results.length === 0
            ? 'No results for “' + q + '”'
            : res.results.length + (res.results.length === 1 ? ' result' : ' results');
      });
    });
  }
  list.addEventListener('pointerdown', function () {
    pressed = true;
  });
  function release() {
    if (!pressed) return;
    pressed = false;
    // After the click the release makes (it follows pointerup in the same task): then the newer results.
    setTimeout(function () {
      if (!pending || pressed) return;
      var show = pending;
      pending = null;
      show();
    });
  }
  addEventListener('pointerup', release, scoped);
  addEventListener('pointercancel', release, scoped);
  var clear = d.querySelector('.search-clear');
  input.addEventListener('input', function () {
    open();
    clear.hidden = !input.value;
    search();
  });
  clear.addEventListener('click', function () {
    input.value = '';
    clear.hidden = true;
    search();
    input.focus();
  });
  document.querySelectorAll('[data-search-open]').forEach(function (b) {
    b.addEventListener('click', open);
  });
  d.addEventListener('click', function (e) {
    if (e.target === d) d.close();
  });
  // A result on this page: the closing dialog would swallow the jump to its section, so it is made here.
  list.addEventListener('click', function (e) {
    var a = e.target.closest('a');
    if (!a) return;
    d.close();
    if (a.pathname === location.pathname && a.hash) {
      e.preventDefault();
      location.hash = a.hash;
    }
  });
  input.addEventListener('keydown', function (e) {
    // A search field's own Escape only empties it: here one Escape closes the dialog (Clear empties the field).
    if (e.key === 'Escape') {
      e.preventDefault();
      d.close();
      return;
    }
    if (e.key === 'ArrowDown') {
      var a = list.querySelector('a');
      if (a) {
        e.preventDefault();
        a.focus();
      }
    }
  });
  list.addEventListener('keydown', function (e) {
    var li = e.target.closest('li');
    if (!li) return;
    var to = e.key === 'ArrowDown' ? li.nextElementSibling : e.key === 'ArrowUp' ? li.previousElementSibling : null;
    if (e.key === 'ArrowUp' && !to) {
      e.preventDefault();
      input.focus();
      return;
    }
    if (to) {
      e.preventDefault();
      to.querySelector('a').focus();
    }
  });
  addEventListener(
    'keydown',
    function (e) {
      var a = document.activeElement;
      if ((e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey) && !e.altKey) {
        e.preventDefault();
        d.open ? d.close() : open();
        return;
      }
      if (
        e.key !== '/' ||
        e.ctrlKey ||
        e.metaKey ||
        e.altKey ||
        e.isComposing ||
        d.open ||
        (a && (a.matches('input,textarea,select') || a.isContentEditable))
      )
        return;
      e.preventDefault();
      open();
    },
    scoped,
  );
})();
(function () {
  var b = document.querySelector('.menu-toggle'),
    n = document.getElementById('sidebar'),
    f = document.querySelector('.site-footer'),
    m = document.getElementById('main');
  if (!b || !n) return;
  function set(o) {
    b.setAttribute('aria-expanded', String(o));
    document.body.classList.toggle('menu-open', o);
    m.inert = o;
    f.inert = o;
    if (o) {
      var c = n.querySelector('[aria-current="page"]') || n.querySelector('a');
      c && c.focus();
    }
  }
  b.addEventListener('click', function () {
    set(b.getAttribute('aria-expanded') !== 'true');
  });
  addEventListener(
    'keydown',
    function (e) {
      if (e.key === 'Escape' && b.getAttribute('aria-expanded') === 'true') {
        set(false);
        b.focus();
      }
    },
    scoped,
  );
  matchMedia('(min-width: 50rem)').addEventListener(
    'change',
    function (e) {
      if (e.matches) set(false);
    },
    scoped,
  );
  // A lesson page lists only its own module's lessons; the others come from one shared file when opened.
  var lessons = null;
  function fill(mod) {
    lessons =
      lessons ||
      fetch(n.dataset.lessons).then(function (r) {
        return r.json();
      });
    lessons
      .then(function (all) {
        var ul = mod.querySelector('ul'),
          rows = all[mod.dataset.module];
        if (!rows || !mod.hasAttribute('data-module')) return;
        mod.removeAttribute('data-module');
        ul.replaceChildren.apply(
          ul,
          rows.map(function (l) {
            var li = document.createElement('li'),
              a = document.createElement('a'),
              s = document.createElement('span');
            a.href = l[2];
            s.className = 'num';
            s.textContent = l[0];
            a.append(s, ' ' + l[1]);
            li.append(a);
            return li;
          }),
        );
      })
      .catch(function () {
        lessons = null;
      });
  }
  n.querySelectorAll('details[data-module]').forEach(function (mod) {
    mod.addEventListener('toggle', function () {
      if (mod.open) fill(mod);
    });
  });
})();
(function () {
  // Every block measured before any is changed: a read after a write makes the browser lay out the page
  // again, once per code block.
  var codeBlocks = [].slice.call(document.querySelectorAll('.expressive-code pre')),
    scrolling = codeBlocks.map(function (p) {
      return p.scrollWidth > p.clientWidth || p.scrollHeight > p.clientHeight;
    });
  codeBlocks.forEach(function (p, i) {
    if (!scrolling[i]) return;
    var t = p.closest('figure').querySelector('.title'),
      n = p.querySelector('.ln');
    p.tabIndex = 0;
    p.setAttribute('role', 'region');
    p.setAttribute(
      'aria-label',
      (t ? t.textContent : 'Code') + (n ? ', from line ' + n.textContent : '') + ' (code block ' + (i + 1) + ')',
    );
  });
})();
(function () {
  // Diagrams: a "Full size" button (beside the caption, never over the drawing) moves the SVG into a
  // dialog that fills the screen: at least as large as the figure showed it and its labels at 14 px or
  // more, it pans (scrollbars, dragging, arrow keys) and zooms (its − and + buttons, the + and - keys,
  // Ctrl + wheel). Esc, Close or a click beside it closes it and puts the SVG back.
  var buttons = document.querySelectorAll('.diagram-zoom'),
    dlg = null,
    moved = null;
  if (buttons.length === 0) return;
  function visible(fig) {
    return [].slice.call(fig.querySelectorAll('.diagram-svg')).filter(function (s) {
      return s.offsetParent !== null && s.querySelector('svg');
    })[0];
  }
  function close() {
    if (!moved) return;
    moved.svg.style.cssText = moved.style;
    moved.home.appendChild(moved.svg);
    moved.home.style.minHeight = '';
    var b = moved.button;
    moved = null;
    b.focus();
  }
  function zoom(by, cx, cy) {
    if (!moved) return;
    var body = dlg.querySelector('.diagram-dialog-body'),
      r = body.getBoundingClientRect(),
      x = cx === undefined ? body.clientWidth / 2 : cx - r.left,
      y = cy === undefined ? body.clientHeight / 2 : cy - r.top,
      old = moved.width,
      next = Math.min(moved.max, Math.max(moved.fit, old * by));
    if (next === old) return;
    var fx = (body.scrollLeft + x) / old,
      fy = (body.scrollTop + y) / old;
    moved.width = next;
    moved.svg.style.width = next + 'px';
    body.scrollLeft = fx * next - x;
    body.scrollTop = fy * next - y;
  }
  function make() {
    dlg = document.createElement('dialog');
    dlg.className = 'diagram-dialog';
    dlg.setAttribute('aria-labelledby', 'diagram-dialog-title');
    dlg.innerHTML =
      '<div class="diagram-dialog-bar"><h2 id="diagram-dialog-title"></h2><button type="button" ' +
      'data-zoom="out" aria-label="Zoom out">−</button><button type="button" data-zoom="in" aria-label="Zoom ' +
      'in">+</button><button type="button" data-close autofocus>Close</button></div><div ' +
      'class="diagram-dialog-body" tabindex="0" role="region" aria-label="Diagram, full size: drag or use the ' +
      'arrow keys to pan, + and - to zoom"></div>';
    var body = dlg.querySelector('.diagram-dialog-body'),
      drag = null;
    dlg.querySelector('[data-close]').addEventListener('click', function () {
      dlg.close();
    });
    dlg.querySelector('[data-zoom="in"]').addEventListener('click', function () {
      zoom(1.25);
    });
    dlg.querySelector('[data-zoom="out"]').addEventListener('click', function () {
      zoom(0.8);
    });
    dlg.addEventListener('click', function (e) {
      if (e.target === dlg) dlg.close();
    });
    dlg.addEventListener('close', close);
    body.addEventListener('keydown', function (e) {
      if (e.key === '+' || e.key === '=') zoom(1.25);
      else if (e.key === '-') zoom(0.8);
      else return;
      e.preventDefault();
    });
    body.addEventListener(
      'wheel',
      function (e) {
        if (!e.ctrlKey) return;
        e.preventDefault();
        zoom(e.deltaY < 0 ? 1.1 : 0.9, e.clientX, e.clientY);
      },
      { passive: false },
    );
    body.addEventListener('pointerdown', function (e) {
      if (e.pointerType !== 'mouse' || e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, left: body.scrollLeft, top: body.scrollTop };
      body.setPointerCapture(e.pointerId);
    });
    body.addEventListener('pointermove', function (e) {
      if (!drag) return;
      body.scrollLeft = drag.left - (e.clientX - drag.x);
      body.scrollTop = drag.top - (e.clientY - drag.y);
    });
    body.addEventListener('pointerup', function () {
      drag = null;
    });
    document.body.appendChild(dlg);
  }
  function open(b) {
    var home = visible(b.closest('figure'));
    if (!home) return;
    if (!dlg) make();
    var svg = home.querySelector('svg'),
      box = svg.viewBox && svg.viewBox.baseVal,
      shown = svg.getBoundingClientRect().width,
      natural = box && box.width ? box.width : shown,
      labels = parseFloat(home.style.getPropertyValue('--diagram-min-w')) || 0,
      body = dlg.querySelector('.diagram-dialog-body');
    moved = { svg: svg, home: home, style: svg.style.cssText, button: b, fit: 0, max: 0, width: 0 };
    home.style.minHeight = home.offsetHeight + 'px';
    dlg.querySelector('h2').textContent = b.dataset.name;
    body.appendChild(svg);
    dlg.showModal();
    // Never smaller than the figure showed it, labels at 14 px at least, the whole drawing when it fits.
    var room = body.clientWidth - 32,
      width = Math.ceil(Math.max(shown, labels, Math.min(natural, room) || shown));
    moved.fit = Math.ceil(shown);
    moved.max = width * 4;
    moved.width = width;
    svg.style.cssText = 'width:' + width + 'px;max-width:none;min-width:0;height:auto';
    body.scrollLeft = 0;
    body.scrollTop = 0;
  }
  // A drawing wider than the text may use the free area to its right (site.css: --diagram-w on the
  // figure); one still wider is scaled to its box. Should a drawing ever scroll sideways (one that cannot
  // shrink), it is focusable, named, and faded at each edge with more to see.
  function edges(s) {
    var x = Math.abs(s.scrollLeft),
      more = s.scrollWidth - s.clientWidth;
    s.toggleAttribute('data-more-start', more > 1 && x > 1);
    s.toggleAttribute('data-more-end', more > 1 && x < more - 1);
  }
  function scrollable(s) {
    var wide = s.scrollWidth > s.clientWidth + 1,
      fig = s.closest('figure'),
      b = fig.querySelector('.diagram-zoom');
    if (wide) {
      s.tabIndex = 0;
      s.setAttribute('role', 'region');
      s.setAttribute('aria-label', (b ? b.dataset.name : 'Diagram') + ' (scrolls sideways)');
    } else if (s.hasAttribute('role')) {
      s.removeAttribute('tabindex');
      s.removeAttribute('role');
      s.removeAttribute('aria-label');
    }
    edges(s);
  }
  var drawings = document.querySelectorAll('.diagram-svg'),
    seen =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver(function (rows) {
            rows.forEach(function (r) {
              scrollable(r.target);
            });
          })
        : null;
  drawings.forEach(function (s) {
    var w = s.style.getPropertyValue('--diagram-min-w');
    if (w) s.closest('figure').style.setProperty('--diagram-w', w);
    s.addEventListener(
      'scroll',
      function () {
        edges(s);
      },
      { passive: true },
    );
    if (seen) seen.observe(s);
    else scrollable(s);
  });
  buttons.forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      open(b);
    });
  });
  if (!seen)
    addEventListener(
      'resize',
      function () {
        drawings.forEach(scrollable);
      },
      scoped,
    );
})();
(function () {
  // "On this page": the column's link and the bar's link of the section being read are marked, and the bar names it.
  // On wide screens the column gives way to the bar while something shares its area: the readalong's
  // code panel or a diagram wider than the text (html[data-toc-away], site.css). Both stay where they
  // are in the page; only which of the two shows changes.
  var links = [].slice.call(document.querySelectorAll('.toc a')),
    bar = document.querySelector('.toc-mobile'),
    list = bar && bar.querySelector('details');
  if (links.length === 0 || !bar) return;
  var barLinks = [].slice.call(bar.querySelectorAll('a')),
    current = bar.querySelector('.toc-current'),
    header = document.querySelector('.site-header'),
    d = document.documentElement,
    col = document.querySelector('.toc');
  var heads = links.map(function (a) {
    return document.getElementById(decodeURIComponent(a.hash.slice(1)));
  });
  function away() {
    if (col.offsetParent === null) return false;
    var c = col.getBoundingClientRect();
    return [].some.call(
      document.querySelectorAll('[data-readalong][data-enhanced] [aria-current="step"] .ra-code, figure.diagram'),
      function (el) {
        var r = el.getBoundingClientRect();
        // A few px of a figure's blank margin passing the list's edge do not count.
        return r.height > 0 && r.right > c.left && r.left < c.right && r.bottom > c.top + 8 && r.top < c.bottom - 8;
      },
    );
  }
  function pick() {
    var gone = away();
    if (gone !== d.hasAttribute('data-toc-away')) {
      d.toggleAttribute('data-toc-away', gone);
      if (!gone) list.open = false;
    }
    var b = bar.getBoundingClientRect(),
      shown = b.height > 0 && getComputedStyle(bar).visibility !== 'hidden' && b.top <= header.offsetHeight + 1;
    // A heading a link scrolled to (under the scroll padding, site.css) is the one being read.
    var y = Math.max(
        (shown ? b.bottom : header.getBoundingClientRect().bottom) + 40,
        (parseFloat(getComputedStyle(d).scrollPaddingTop) || 0) + 24,
      ),
      i = 0;
    // Beside a readalong's code panel the section being read is the active step's: the same line, 40% down.
    if (document.querySelector('[data-readalong][data-enhanced]')) y = Math.max(y, innerHeight * 0.4);
    heads.forEach(function (h, k) {
      if (h && h.getBoundingClientRect().top < y) i = k;
    });
    [links, barLinks].forEach(function (list) {
      list.forEach(function (a, k) {
        if (k === i) a.setAttribute('aria-current', 'true');
        else a.removeAttribute('aria-current');
      });
    });
    current.textContent = links[i].textContent;
  }
  var t = 0;
  function later() {
    if (!t)
      t = requestAnimationFrame(function () {
        t = 0;
        pick();
      });
  }
  addEventListener('scroll', later, { passive: true, signal: scoped.signal });
  addEventListener('resize', later, scoped);
  // The readalong's script switches steps (by a click too) and layouts (its "Inline code" button).
  var ra = document.querySelector('[data-readalong]');
  if (ra && typeof MutationObserver === 'function')
    new MutationObserver(later).observe(ra, {
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-current', 'data-enhanced'],
    });
  bar.addEventListener('click', function (e) {
    if (e.target.closest('a')) list.open = false;
  });
  addEventListener(
    'keydown',
    function (e) {
      if (e.key === 'Escape' && list.open) {
        list.open = false;
        bar.querySelector('summary').focus();
      }
    },
    scoped,
  );
  addEventListener(
    'click',
    function (e) {
      if (list.open && !bar.contains(e.target)) list.open = false;
    },
    scoped,
  );
  pick();
})();
(function () {
  // Theme: Light, Dark or System (nothing stored: the system's scheme, followed when it changes). One
  // menu in the header, and on phones one in the menu drawer instead (the title keeps the header's room).
  var menus = [].slice.call(document.querySelectorAll('.theme-select')),
    d = document.documentElement,
    mq = matchMedia('(prefers-color-scheme: dark)');
  if (menus.length === 0) return;
  function stored() {
    try {
      var v = localStorage.getItem('codelabgen-theme');
      return v === 'dark' || v === 'light' ? v : null;
    } catch {
      return null;
    }
  }
  function apply() {
    var v = stored();
    d.dataset.theme = v || (mq.matches ? 'dark' : 'light');
    menus.forEach(function (s) {
      s.value = v || 'auto';
    });
  }
  menus.forEach(function (s) {
    s.addEventListener('change', function () {
      try {
        if (s.value === 'auto') localStorage.removeItem('codelabgen-theme');
        else localStorage.setItem('codelabgen-theme', s.value);
      } catch {
        // Storage blocked (private mode): the choice holds for this page only.
      }
      apply();
    });
  });
  mq.addEventListener('change', apply, scoped);
  apply();
})();

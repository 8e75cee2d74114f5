/**
 * Evidence: the sample app's screens are ours (sample-app.ts); the launcher's and Settings' are drawn
 * with the resource ids and classes real dumps show (tests/fixtures/ui/launcher-pixel.xml).
 */
import { SAMPLE_PACKAGE } from '../../sample-app.js';
import { CHROME_PACKAGE, LAUNCHER_PACKAGE, SETTINGS_PACKAGE } from '../packages.js';
import type { ActivityRecord, ScreenEnv } from './ui-model.js';
import { F, node, type ViewNode } from './view.js';
import { wrapText } from './text-layout.js';
import { localize } from './locales.js';

type Rect = readonly [number, number, number, number];

/** The focus a WebView holds when a tap went into it: typing and keys go to its page. */
export const WEB_FOCUS = 'web';

/** Number of rows in the sample app's home list. */
export const HOME_ITEMS = 40;

/** Lays out a screen in dp like an Android layout would, converting to pixels with the density. */
class Frame {
  readonly scale: number;
  readonly statusH: number;
  readonly navH: number;
  constructor(readonly env: ScreenEnv) {
    this.scale = env.density / 160;
    this.statusH = this.dp(24);
    this.navH = this.dp(48);
  }
  dp(v: number): number {
    return Math.round(v * this.scale);
  }
  /** Text sizes: sp scaled by the density and the font scale (text-layout.ts). */
  sp(v: number): number {
    return Math.round(v * this.scale * (this.env.fontScale ?? 1) * 10) / 10;
  }
  get contentTop(): number {
    return this.statusH;
  }
  get contentBottom(): number {
    return this.env.height - this.navH;
  }
  /** The window decor every app screen has around its content. */
  decor(pkg: string, content: ViewNode[]): ViewNode {
    const { width: w, height: h } = this.env;
    return node('android.widget.FrameLayout', pkg, [0, 0, w, h], {
      children: [
        node('android.widget.LinearLayout', pkg, [0, 0, w, h], {
          children: [
            node('android.widget.FrameLayout', pkg, [0, this.contentTop, w, this.contentBottom], {
              id: 'android:id/content',
              children: content,
            }),
          ],
        }),
      ],
    });
  }
  toolbar(pkg: string, title: string, up: boolean): ViewNode {
    const w = this.env.width;
    const top = this.contentTop;
    const bottom = top + this.dp(56);
    const children: ViewNode[] = [];
    let textLeft = this.dp(16);
    if (up) {
      children.push(
        node('android.widget.ImageButton', pkg, [0, top, this.dp(56), bottom], {
          desc: 'Navigate up',
          flags: F.ENABLED | F.CLICKABLE | F.FOCUSABLE,
          action: 'back',
        }),
      );
      textLeft = this.dp(72);
    }
    children.push(
      node(
        'android.widget.TextView',
        pkg,
        [textLeft, top + this.dp(14), Math.min(w, textLeft + this.dp(260)), top + this.dp(42)],
        { text: title },
      ),
    );
    return node('android.view.ViewGroup', pkg, [0, top, w, bottom], { id: `${pkg}:id/toolbar`, children });
  }
}

function editText(
  pkg: string,
  id: string,
  bounds: Rect,
  value: string,
  hint: string,
  focused: boolean,
  password: boolean,
): ViewNode {
  let flags: number = F.ENABLED | F.CLICKABLE | F.FOCUSABLE | F.LONG_CLICKABLE | F.EDITABLE;
  if (focused) {
    flags |= F.FOCUSED;
  }
  if (password) {
    flags |= F.PASSWORD;
  }
  // An empty field exposes its hint as text; a password field shows one bullet per character.
  const text = value === '' ? hint : password ? '\u2022'.repeat([...value].length) : value;
  return node('android.widget.EditText', pkg, bounds, {
    id: `${pkg}:id/${id}`,
    text,
    flags,
    action: `focus:${id}`,
  });
}

function button(
  pkg: string,
  id: string,
  bounds: Rect,
  text: string,
  action: string,
  style?: { textPx: number; linePx: number },
): ViewNode {
  return node('android.widget.Button', pkg, bounds, {
    id: `${pkg}:id/${id}`,
    text,
    flags: F.ENABLED | F.CLICKABLE | F.FOCUSABLE,
    action,
    ...style,
  });
}

function label(pkg: string, id: string, bounds: Rect, text: string): ViewNode {
  return node('android.widget.TextView', pkg, bounds, { id: id === '' ? '' : `${pkg}:id/${id}`, text });
}

function loginScreen(f: Frame, rec: ActivityRecord): ViewNode {
  const pkg = rec.pkg;
  const s = rec.state;
  const w = f.env.width;
  const left = f.dp(24);
  const right = w - f.dp(24);
  let y = f.contentTop + f.dp(56) + f.dp(24);
  const next = (height: number, gap = 16): Rect => {
    const r: Rect = [left, y, right, y + f.dp(height)];
    y += f.dp(height + gap);
    return r;
  };
  // The title wraps (wrap_content, at least 32 dp): larger text or a narrower screen moves the form down.
  const title = 'Sign in to Droidbus Sample';
  const titleStyle = { textPx: f.sp(22), linePx: f.sp(28) };
  const titleLines = wrapText(title, right - left, titleStyle.textPx).length;
  const titleDp = Math.max(32, Math.ceil((titleLines * titleStyle.linePx) / f.scale));
  const children: ViewNode[] = [
    { ...label(pkg, 'title', next(titleDp), title), ...titleStyle },
    editText(
      pkg,
      'username',
      next(56),
      s.fields['username'] ?? '',
      'Username',
      s.focus === 'username',
      false,
    ),
    editText(pkg, 'password', next(56), s.fields['password'] ?? '', 'Password', s.focus === 'password', true),
  ];
  if (s.error) {
    children.push(label(pkg, 'error', next(24), s.errorText ?? 'Enter a username and password'));
  }
  if (s.busy === true) {
    children.push(label(pkg, 'progress', next(24), 'Signing in…'));
  }
  children.push(button(pkg, 'sign_in', next(48), 'Sign in', 'click:sign_in'));
  const form = node('android.widget.LinearLayout', pkg, [0, f.contentTop + f.dp(56), w, f.contentBottom], {
    id: `${pkg}:id/login_form`,
    children,
  });
  return f.decor(pkg, [f.toolbar(pkg, 'Droidbus Sample', false), form]);
}

/** Geometry of the home screen's list, shared by the builder and the scroll handler. */
export function homeListGeometry(env: ScreenEnv): {
  top: number;
  bottom: number;
  rowHeight: number;
  maxScroll: number;
} {
  const f = new Frame(env);
  const top = f.contentTop + f.dp(56) + f.dp(16) + f.dp(28) + f.dp(16) + f.dp(48) + f.dp(16);
  const bottom = f.contentBottom;
  const rowHeight = f.dp(64);
  return { top, bottom, rowHeight, maxScroll: Math.max(0, HOME_ITEMS * rowHeight - (bottom - top)) };
}

function homeScreen(f: Frame, rec: ActivityRecord): ViewNode {
  const pkg = rec.pkg;
  const w = f.env.width;
  const top = f.contentTop + f.dp(56) + f.dp(16);
  const user = rec.state.extras['user'] ?? 'guest';
  // Its colour is hard-coded in the layout (#49454F, fine on the light theme): in the dark theme the
  // text is dark grey on near-black, the contrast check_layout finds.
  const welcome = {
    ...label(pkg, 'welcome', [f.dp(24), top, w - f.dp(24), top + f.dp(28)], `Welcome, ${user}`),
    textColor: '#49454F',
  };
  const by = top + f.dp(28) + f.dp(16);
  const mid = Math.round(w / 2);
  const buttonText = { textPx: f.sp(14), linePx: f.sp(20) };
  const buttons = node('android.widget.LinearLayout', pkg, [0, by, w, by + f.dp(48)], {
    children: [
      // A fixed 48 dp height (the sample's layout): at font scale 1.3 on a small phone the label
      // takes two lines and the button cuts them (check_layout's test finds it).
      button(
        pkg,
        'open_details',
        [f.dp(24), by, mid - f.dp(8), by + f.dp(48)],
        'Open item details',
        'click:open_details',
        buttonText,
      ),
      button(
        pkg,
        'crash',
        [mid + f.dp(8), by, w - f.dp(24), by + f.dp(48)],
        'Crash',
        'click:crash',
        buttonText,
      ),
    ],
  });
  const g = homeListGeometry(f.env);
  const rows: ViewNode[] = [];
  const scroll = Math.min(rec.state.scroll, g.maxScroll);
  for (let i = 0; i < HOME_ITEMS; i++) {
    const rt = g.top + i * g.rowHeight - scroll;
    const rb = rt + g.rowHeight;
    if (rb <= g.top || rt >= g.bottom) {
      continue;
    }
    // uiautomator reports bounds clipped to the visible part of the list.
    rows.push(
      node('android.widget.TextView', pkg, [0, Math.max(rt, g.top), w, Math.min(rb, g.bottom)], {
        id: `${pkg}:id/item_title`,
        text: `Item ${i + 1}`,
        flags: F.ENABLED | F.CLICKABLE | F.FOCUSABLE,
        action: `click:item:${i + 1}`,
      }),
    );
  }
  const list = node('androidx.recyclerview.widget.RecyclerView', pkg, [0, g.top, w, g.bottom], {
    id: `${pkg}:id/list`,
    flags: F.ENABLED | F.FOCUSABLE | F.SCROLLABLE,
    children: rows,
  });
  return f.decor(pkg, [f.toolbar(pkg, 'Home', false), welcome, buttons, list]);
}

function detailScreen(f: Frame, rec: ActivityRecord): ViewNode {
  const pkg = rec.pkg;
  const w = f.env.width;
  const item = rec.state.extras['item'] ?? '1';
  let y = f.contentTop + f.dp(56) + f.dp(24);
  const row = (height: number): Rect => {
    const r: Rect = [f.dp(24), y, w - f.dp(24), y + f.dp(height)];
    y += f.dp(height + 16);
    return r;
  };
  const checkFlags = (key: string): number =>
    F.ENABLED | F.CLICKABLE | F.FOCUSABLE | F.CHECKABLE | (rec.state.checked[key] === true ? F.CHECKED : 0);
  // `--es live true`: live prices under an indeterminate ProgressBar that spins forever, so the
  // screen never goes idle (Device.neverIdle).
  const live = rec.state.extras['live'] === 'true';
  const children = [
    ...(live
      ? [
          node('android.widget.ProgressBar', pkg, row(48), {
            id: `${pkg}:id/live_progress`,
            flags: F.ENABLED,
          }),
          label(pkg, 'live_status', row(24), 'Updating live prices…'),
        ]
      : []),
    label(pkg, 'detail_title', row(32), `Item ${item}`),
    label(
      pkg,
      'detail_body',
      row(48),
      `Details for item ${item}. Price: ${(Number(item) * 3.5 + 9.49).toFixed(2)} EUR`,
    ),
    node('android.widget.CheckBox', pkg, row(48), {
      id: `${pkg}:id/favourite`,
      text: 'Favourite',
      flags: checkFlags('favourite'),
      action: 'toggle:favourite',
    }),
    node('android.widget.Switch', pkg, row(48), {
      id: `${pkg}:id/notify`,
      text: 'Notify me',
      flags: checkFlags('notify'),
      action: 'toggle:notify',
    }),
  ];
  return f.decor(pkg, [f.toolbar(pkg, 'Details', true), ...children]);
}

function launcherScreen(f: Frame): ViewNode {
  const { width: w, height: h } = f.env;
  const pkg = LAUNCHER_PACKAGE;
  const cols = 4;
  const cellW = Math.floor(w / cols);
  const cellH = f.dp(96);
  const top = f.statusH + f.dp(80);
  const icons = f.env.launcherApps.map((app, i) => {
    const cx = (i % cols) * cellW;
    const cy = top + Math.floor(i / cols) * cellH;
    return node('android.widget.TextView', pkg, [cx, cy, cx + cellW, cy + cellH], {
      text: app.label,
      desc: app.label,
      flags: F.ENABLED | F.CLICKABLE | F.FOCUSABLE | F.LONG_CLICKABLE,
      action: `launch:${app.pkg}`,
    });
  });
  const workspace = node('android.widget.ScrollView', pkg, [0, f.statusH, w, h - f.navH], {
    id: `${pkg}:id/workspace`,
    flags: F.ENABLED | F.FOCUSABLE | F.SCROLLABLE,
    children: [node('android.view.ViewGroup', pkg, [0, f.statusH, w, h - f.navH], { children: icons })],
  });
  return node('android.widget.FrameLayout', pkg, [0, 0, w, h], {
    children: [
      node('android.widget.FrameLayout', pkg, [0, 0, w, h], {
        id: `${pkg}:id/drag_layer`,
        children: [workspace],
      }),
    ],
  });
}

/** A plain screen for apps the simulator has no special model of: a title and some lines. */
function genericScreen(f: Frame, rec: ActivityRecord, title: string, lines: string[]): ViewNode {
  const pkg = rec.pkg;
  const w = f.env.width;
  let y = f.contentTop + f.dp(56) + f.dp(16);
  const rows = lines.map((text) => {
    const r: Rect = [0, y, w, y + f.dp(56)];
    y += f.dp(56);
    return node('android.widget.TextView', pkg, r, { text, flags: F.ENABLED | F.CLICKABLE | F.FOCUSABLE });
  });
  const list = node('android.widget.LinearLayout', pkg, [0, f.contentTop + f.dp(56), w, f.contentBottom], {
    children: rows,
  });
  return f.decor(pkg, [f.toolbar(pkg, title, false), list]);
}

function chromeScreen(f: Frame, rec: ActivityRecord): ViewNode {
  const pkg = rec.pkg;
  const w = f.env.width;
  const top = f.contentTop;
  const url = rec.state.extras['url'] ?? '';
  const bar = editText(
    pkg,
    'url_bar',
    [f.dp(56), top + f.dp(8), w - f.dp(56), top + f.dp(48)],
    rec.state.fields['url_bar'] ?? url,
    'Search or type web address',
    rec.state.focus === 'url_bar',
    false,
  );
  const web = node('android.webkit.WebView', pkg, [0, top + f.dp(56), w, f.contentBottom], {
    text: url === '' ? 'New tab' : url,
    flags: F.ENABLED | F.FOCUSABLE | F.SCROLLABLE,
  });
  return f.decor(pkg, [
    node('android.widget.FrameLayout', pkg, [0, top, w, top + f.dp(56)], {
      id: `${pkg}:id/toolbar`,
      children: [bar],
    }),
    web,
  ]);
}

/**
 * The sample's WebActivity: a toolbar and a WebView filling the content (its page runs in the sim's
 * Chromium, webview/webviews.ts). Under the WebView node, the page's accessibility echo once the page
 * was read (webview/echo.ts): the app's own view is then neither focusable nor focused, the root web
 * area is, as a phone's dump shows them; before, the WebView node stands alone.
 */
function webScreen(f: Frame, rec: ActivityRecord): ViewNode {
  const pkg = rec.pkg;
  const top = f.contentTop + f.dp(56);
  const bounds: Rect = [0, top, f.env.width, f.contentBottom];
  const focused = rec.state.focus === null || rec.state.focus === WEB_FOCUS;
  const echo = f.env.webEcho?.(rec, bounds, focused) ?? null;
  const web = node('android.webkit.WebView', pkg, bounds, {
    flags:
      echo !== null
        ? F.ENABLED
        : F.ENABLED | F.FOCUSABLE | F.SCROLLABLE | (rec.state.focus === WEB_FOCUS ? F.FOCUSED : 0),
    children: echo !== null ? [echo] : [],
    // Taps inside it go to the page (webview/webviews.ts).
    action: 'web',
  });
  return f.decor(pkg, [f.toolbar(pkg, 'Sign in (web)', true), web]);
}

/** One of the sample app's screens; null for an activity it does not have. */
function sampleScreen(f: Frame, rec: ActivityRecord): ViewNode | null {
  switch (rec.cls.slice(rec.cls.lastIndexOf('.') + 1)) {
    case 'LoginActivity':
      return loginScreen(f, rec);
    case 'HomeActivity':
      return homeScreen(f, rec);
    case 'DetailActivity':
      return detailScreen(f, rec);
    case 'WebActivity':
      return webScreen(f, rec);
    default:
      return null;
  }
}

/** The view tree of an activity on the given display. */
export function buildActivityScreen(rec: ActivityRecord, env: ScreenEnv): ViewNode {
  const f = new Frame(env);
  if (rec.cls.startsWith(SAMPLE_PACKAGE + '.')) {
    const screen = sampleScreen(f, rec);
    if (screen !== null) {
      // The app's own language (cmd locale set-app-locales), when it has one.
      const tags = env.localeOf?.(rec.pkg) ?? '';
      return tags === '' ? screen : localize(screen, tags, env.width);
    }
  }
  if (rec.pkg === LAUNCHER_PACKAGE) {
    return launcherScreen(f);
  }
  if (rec.pkg === CHROME_PACKAGE) {
    return chromeScreen(f, rec);
  }
  if (rec.pkg === SETTINGS_PACKAGE) {
    const target = rec.state.extras['package'];
    if (target !== undefined) {
      return genericScreen(f, rec, 'App info', [
        env.labelOf(target),
        target,
        'Open',
        'Uninstall',
        'Force stop',
        'Notifications',
        'Permissions',
        'Storage & cache',
      ]);
    }
    return genericScreen(f, rec, 'Settings', [
      'Network & internet',
      'Connected devices',
      'Apps',
      'Notifications',
      'Battery',
      'Storage',
      'Display',
      'System',
    ]);
  }
  return genericScreen(f, rec, env.labelOf(rec.pkg), [rec.cls.slice(rec.cls.lastIndexOf('.') + 1)]);
}

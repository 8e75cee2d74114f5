/**
 * The sample app in another language: its screens' strings from its translations, laid out right
 * to left for a right-to-left language. Its Arabic translation lacks `open_detail` (the sample
 * project's `values-ar/strings.xml` has every string but that one), so that button stays English:
 * the bug Android lint calls MissingTranslation, as check_layout sees it on screen.
 *
 * Evidence: AOSP LocaleManagerShellCommand (`cmd locale set-app-locales PKG --locales TAGS`,
 * `get-app-locales` printing `Locales for PKG for user 0 are [TAGS]`; Android 13's per-app
 * languages); a resource missing from a locale's values falls back to the default one
 * (developer.android.com "Localize your app"); a right-to-left locale mirrors a layout written with
 * start and end (View.LAYOUT_DIRECTION_RTL, android:supportsRtl).
 */
import type { ViewNode } from './view.js';

/** The sample's Arabic strings, as its values-ar/strings.xml has them (no open_detail). */
const ARABIC: Readonly<Record<string, string>> = {
  'Droidbus Sample': 'تطبيق Droidbus',
  Home: 'الرئيسية',
  Crash: 'تعطّل',
  'Sign in to Droidbus Sample': 'سجّل الدخول إلى Droidbus',
  'Sign in': 'تسجيل الدخول',
  Username: 'اسم المستخدم',
  Password: 'كلمة المرور',
  Details: 'التفاصيل',
};

/** Translations by language, and the patterns of the strings built from a format. */
const TRANSLATIONS: Readonly<
  Record<string, { strings: Readonly<Record<string, string>>; formats: [RegExp, string][] }>
> = {
  ar: {
    strings: ARABIC,
    formats: [
      [/^Welcome, (.+)$/, 'مرحبًا، $1'],
      [/^Item (\d+)$/, 'العنصر $1'],
    ],
  },
};

const RTL = new Set(['ar', 'fa', 'he', 'iw', 'ur']);

/** The first language of `tags` (`ar` of `ar-EG,en`); '' for none. */
export function languageOf(tags: string): string {
  return (tags.split(',')[0] ?? '').split('-')[0]!.toLowerCase();
}

/** The strings of `lang` the sample app has, as the en-US text it replaces. */
export const SAMPLE_ARABIC_STRINGS = ARABIC;

/**
 * `tree` in `tags`' language: its texts translated where the app has a translation, and mirrored
 * for a right-to-left language (left and right swapped across the `width`-pixel screen).
 */
export function localize(tree: ViewNode, tags: string, width: number): ViewNode {
  const lang = languageOf(tags);
  const t = TRANSLATIONS[lang];
  if (t === undefined && !RTL.has(lang)) {
    return tree;
  }
  const translate = (text: string): string => {
    const exact = t?.strings[text];
    if (exact !== undefined) {
      return exact;
    }
    for (const [pattern, replacement] of t?.formats ?? []) {
      if (pattern.test(text)) {
        return text.replace(pattern, replacement);
      }
    }
    return text;
  };
  const mirror = RTL.has(lang);
  const walk = (n: ViewNode): ViewNode => ({
    ...n,
    text: translate(n.text),
    desc: translate(n.desc),
    bounds: mirror ? [width - n.bounds[2], n.bounds[1], width - n.bounds[0], n.bounds[3]] : n.bounds,
    children: n.children.map(walk),
  });
  return walk(tree);
}

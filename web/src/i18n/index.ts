import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { common } from './common';
import { errorTexts } from './error-texts';
import { LANGUAGES, type Language } from './languages';

export { LANGUAGES, type Language } from './languages';
export type Translations = Record<Language, Record<string, unknown>>;
/** A namespace's strings in one language, loaded the first time that language needs them. */
export type LazyTranslations = (language: Language) => Promise<Record<string, unknown>>;

const LANGUAGE_KEY = 'language';

function storedLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  return LANGUAGES.some((l) => l.code === stored) ? (stored as Language) : 'pt-BR';
}

const lazyNamespaces = new Map<string, LazyTranslations>();

/**
 * i18next asks this for a namespace in a language it has not got yet: a plugin's namespace is
 * loaded then (a new language loads on change), any other answers at once with nothing, its
 * strings being registered in full by the module that uses them.
 */
const lazyBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init: () => undefined,
  read(language, namespace, callback) {
    const load = lazyNamespaces.get(namespace);
    if (!load) return callback(null, {});
    load(language as Language).then(
      (resources) => callback(null, resources),
      (err: Error) => callback(err, false),
    );
  },
};

void i18n.use(initReactI18next).use(lazyBackend).init({
  lng: storedLanguage(),
  fallbackLng: 'pt-BR',
  defaultNS: 'common',
  ns: ['common'],
  resources: {},
  // The bundled namespaces above, plus those of lazyBackend.
  partialBundledLanguages: true,
  interpolation: { escapeValue: false },
});
registerTranslations('common', common);
for (const { code } of LANGUAGES) i18n.addResourceBundle(code, 'common', { errors: errorTexts[code] }, true, true);

/** Each page (and plugin page) brings its own strings, under its own namespace. */
export function registerTranslations(namespace: string, translations: Translations): void {
  for (const [language, resources] of Object.entries(translations)) {
    i18n.addResourceBundle(language, namespace, resources, true, true);
  }
}

/** A namespace whose strings load per language when first used (a plugin's, menu labels included). */
export function registerLazyTranslations(namespace: string, load: LazyTranslations): void {
  lazyNamespaces.set(namespace, load);
}

export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

export default i18n;

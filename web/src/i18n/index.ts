import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { common } from './common';
import { errorTexts } from './error-texts';
import { LANGUAGES, type Language } from './languages';

export { LANGUAGES, type Language } from './languages';
export type Translations = Record<Language, Record<string, unknown>>;

const LANGUAGE_KEY = 'language';

function storedLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  return LANGUAGES.some((l) => l.code === stored) ? (stored as Language) : 'pt-BR';
}

void i18n.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: 'pt-BR',
  defaultNS: 'common',
  ns: ['common'],
  resources: {},
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

export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  void i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

export default i18n;

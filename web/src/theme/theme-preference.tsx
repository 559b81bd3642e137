import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useMediaQuery } from './media-query';

export type ThemeMode = 'light' | 'dark';

const THEME_KEY = 'preferredTheme';
const SYSTEM_DARK = '(prefers-color-scheme: dark)';

interface ThemePreference {
  mode: ThemeMode;
  toggle(): void;
}

const ThemeContext = createContext<ThemePreference>({ mode: 'light', toggle: () => {} });

function storedMode(): ThemeMode | null {
  const stored = localStorage.getItem(THEME_KEY);
  return stored === 'dark' || stored === 'light' ? stored : null;
}

/** The theme the user chose with the top bar's toggle; until they choose, the system's, followed live. */
export function ThemePreferenceProvider({ children }: { children: ReactNode }) {
  const [chosen, setChosen] = useState<ThemeMode | null>(storedMode);
  const system: ThemeMode = useMediaQuery(SYSTEM_DARK) ? 'dark' : 'light';
  const mode = chosen ?? system;

  // Scroll bars and form controls outside antd follow too.
  useEffect(() => {
    document.documentElement.style.colorScheme = mode;
  }, [mode]);

  const toggle = () => {
    const next = mode === 'dark' ? 'light' : 'dark';
    localStorage.setItem(THEME_KEY, next);
    setChosen(next);
  };
  return <ThemeContext.Provider value={{ mode, toggle }}>{children}</ThemeContext.Provider>;
}

export function useThemePreference(): ThemePreference {
  return useContext(ThemeContext);
}

import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Popover, Spin, Tooltip } from 'antd';
import { SmileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { EmojiData } from 'emoji-picker-react';
import { useThemePreference } from '../../theme/theme-preference';

// The picker and its data load only when someone opens it.
const EmojiPicker = lazy(() => import('emoji-picker-react'));

/** Emoji names and categories in the interface language, shipped with the package (no CDN). */
const DATASETS: Record<string, () => Promise<{ default: EmojiData }>> = {
  'pt-BR': () => import('emoji-picker-react/data/emojis-pt'),
  es: () => import('emoji-picker-react/data/emojis-es'),
  en: () => import('emoji-picker-react/data/emojis-en'),
};

/** The dataset of `language` once loaded (the picker's own loader showed a passing load error on a first open). */
function useEmojiData(language: string, wanted: boolean): EmojiData | null {
  const [loaded, setLoaded] = useState<{ language: string; data: EmojiData } | null>(null);
  useEffect(() => {
    if (!wanted || loaded?.language === language) return;
    let current = true;
    void (DATASETS[language] ?? DATASETS.en!)().then((module) => {
      if (current) setLoaded({ language, data: module.default });
    });
    return () => {
      current = false;
    };
  }, [language, wanted, loaded]);
  return loaded?.language === language ? loaded.data : null;
}

/** A smiley button opening the emoji picker; the chosen emoji goes to `onPick`. Native glyphs, no requests elsewhere. */
export function EmojiButton({ onPick }: { onPick(emoji: string): void }) {
  const { t, i18n } = useTranslation('quickMessages');
  const { mode } = useThemePreference();
  const [open, setOpen] = useState(false);
  const data = useEmojiData(i18n.language, open);
  const loading = <Spin style={{ display: 'block', margin: 48 }} />;
  const picker = !data ? (
    loading
  ) : (
    <Suspense fallback={loading}>
      <EmojiPicker
        open={open}
        theme={mode}
        emojiStyle="native"
        emojiData={data}
        lazyLoadEmojis
        previewConfig={{ showPreview: false }}
        width="min(340px, calc(100vw - 48px))"
        height={380}
        labels={{
          searchPlaceholder: t('emoji.search'),
          searchLabel: t('emoji.search'),
          searchClear: t('emoji.clear'),
          searchResultsNone: t('emoji.none'),
          searchResultsOne: t('emoji.one'),
          searchResultsMany: t('emoji.many'),
          categoryNavigation: t('emoji.categories'),
          loading: t('emoji.loading'),
          loadingError: t('emoji.loadingError'),
          retryLoading: t('emoji.retry'),
          skinToneNeutral: t('emoji.skinToneNeutral'),
          skinToneLight: t('emoji.skinToneLight'),
          skinToneMediumLight: t('emoji.skinToneMediumLight'),
          skinToneMedium: t('emoji.skinToneMedium'),
          skinToneMediumDark: t('emoji.skinToneMediumDark'),
          skinToneDark: t('emoji.skinToneDark'),
        }}
        onEmojiClick={(data) => onPick(data.emoji)}
      />
    </Suspense>
  );
  return (
    <Popover content={picker} trigger="click" open={open} onOpenChange={setOpen} placement="bottomRight" styles={{ container: { padding: 0 } }} destroyOnHidden>
      <Tooltip title={t('modal.emoji')} open={open ? false : undefined}>
        <Button type="text" icon={<SmileOutlined />} aria-label={t('modal.emoji')} data-testid="emoji-button" />
      </Tooltip>
    </Popover>
  );
}

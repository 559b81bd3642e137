import { Tag, theme, type TagProps } from 'antd';
import { chipColors } from '../theme/chip-colors';
import { useThemePreference } from '../theme/theme-preference';

export interface ColorChipProps extends Omit<TagProps, 'color'> {
  /** The queue's or tag's own colour; none gives the plain chip. */
  color?: string | null;
}

/** A queue or tag chip in its own colour, readable in light and dark mode (theme/chip-colors.ts). */
export function ColorChip({ color, style, ...props }: ColorChipProps) {
  const { token } = theme.useToken();
  const { mode } = useThemePreference();
  const colors = color ? chipColors(color, mode === 'dark' ? { surface: token.colorBgContainer } : null) : null;
  if (!colors) return <Tag color={color ?? undefined} style={style} {...props} />;
  return <Tag style={{ ...colors, ...style }} data-chip-color={color} {...props} />;
}

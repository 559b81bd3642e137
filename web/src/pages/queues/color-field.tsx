import { ColorPicker, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { PALETTE } from './palette';

/** #RGB, #RGBA, #RRGGBB or #RRGGBBAA: what the picker can show. */
export const HEX_COLOR = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

interface ColorFieldProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
}

/** The queue's colour: a swatch opening the 50-colour palette (and a free picker), and the hex typed. */
export function ColorField({ id, value = '', onChange }: ColorFieldProps) {
  const { t } = useTranslation('queues');
  return (
    <Space.Compact style={{ width: '100%' }}>
      <ColorPicker
        value={HEX_COLOR.test(value) ? value : undefined}
        onChange={(color) => onChange?.(color.toHexString())}
        presets={[{ label: t('modal.palette'), colors: PALETTE, defaultOpen: true }]}
        disabledAlpha
        disabledFormat
        format="hex"
        aria-label={t('modal.pickColor')}
        data-testid="queue-color-picker"
      />
      <Input id={id} value={value} onChange={(e) => onChange?.(e.target.value.trim())} maxLength={9} placeholder="#2196f3" autoComplete="off" />
    </Space.Compact>
  );
}

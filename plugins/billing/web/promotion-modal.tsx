import { DatePicker, Form, Input, InputNumber, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { errorText, ModalFooter, useSaveRecord } from 'atende/web';
import { CODE_PATTERN, MAX_DISCOUNT_PERCENT, MAX_EXTRA_TRIAL_DAYS, type PromotionRecord } from './promotion-record';

interface FormValues {
  code: string;
  kind: PromotionRecord['kind'];
  amount: number;
  expiresAt: Dayjs | null;
  usesLeft: number;
}

const FIELDS = ['code', 'kind', 'amount', 'expiresAt', 'usesLeft'] as const;

export interface PromotionModalProps {
  open: boolean;
  /** The code to edit; null writes a new one. */
  record: PromotionRecord | null;
  onClose(): void;
  onSaved(): void;
}

/** Write a promotion code: extra trial days or a discount on the first invoice, until a day, for a number of signups. */
export function PromotionModal({ open, record, onClose, onSaved }: PromotionModalProps) {
  const { t } = useTranslation('billing');
  const [form] = Form.useForm<FormValues>();
  const kind = Form.useWatch('kind', form) ?? record?.kind ?? 'trialDays';
  const { saving, submit: save } = useSaveRecord<PromotionRecord>({
    path: '/promotions',
    form,
    fields: FIELDS,
    recordId: record?.id ?? null,
    errorText: (err) => errorText(err, t),
    savedText: t('promotions.saved'),
    onSaved: () => {
      onSaved();
      onClose();
    },
  });

  const submit = (v: FormValues) =>
    save({ code: v.code.trim(), kind: v.kind, amount: v.amount, usesLeft: v.usesLeft, expiresAt: v.expiresAt?.isValid() ? v.expiresAt.format('YYYY-MM-DD') : null });

  const max = kind === 'discount' ? MAX_DISCOUNT_PERCENT : MAX_EXTRA_TRIAL_DAYS;
  return (
    <Modal
      open={open}
      title={t(record ? 'promotions.editTitle' : 'promotions.addTitle')}
      onCancel={onClose}
      destroyOnHidden
      width={480}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={false} />}
    >
      <Form<FormValues>
        form={form}
        name="promotion"
        layout="vertical"
        onFinish={submit}
        disabled={saving}
        requiredMark={false}
        initialValues={
          record
            ? { code: record.code, kind: record.kind, amount: record.amount, usesLeft: record.usesLeft, expiresAt: record.expiresAt ? dayjs(record.expiresAt) : null }
            : { code: '', kind: 'trialDays', amount: 7, usesLeft: 10, expiresAt: null }
        }
      >
        <Form.Item
          name="code"
          label={t('promotions.code')}
          normalize={(v: string) => v.toUpperCase()}
          rules={[
            { required: true, whitespace: true, message: t('promotions.validation.codeRequired') },
            { min: 3, max: 30, message: t('promotions.validation.codeLength') },
            { pattern: CODE_PATTERN, message: t('promotions.validation.codeChars') },
          ]}
        >
          <Input maxLength={30} autoComplete="off" data-testid="promotion-code" />
        </Form.Item>
        <div style={{ display: 'flex', columnGap: 12, flexWrap: 'wrap' }}>
          <Form.Item name="kind" label={t('promotions.kind')} style={{ flex: '1 1 180px' }}>
            <Select
              data-testid="promotion-kind"
              options={[
                { value: 'trialDays', label: t('promotions.kinds.trialDays') },
                { value: 'discount', label: t('promotions.kinds.discount') },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t(kind === 'discount' ? 'promotions.percent' : 'promotions.days')}
            style={{ flex: '1 1 140px' }}
            dependencies={['kind']}
            rules={[
              { required: true, message: t('promotions.validation.amountRequired') },
              { type: 'integer', min: 1, max, message: t('promotions.validation.amountRange', { max }) },
            ]}
          >
            <InputNumber precision={0} style={{ width: '100%' }} suffix={kind === 'discount' ? '%' : undefined} data-testid="promotion-amount" />
          </Form.Item>
        </div>
        <div style={{ display: 'flex', columnGap: 12, flexWrap: 'wrap' }}>
          <Form.Item name="expiresAt" label={t('promotions.expiresAt')} extra={t('promotions.expiresHint')} style={{ flex: '1 1 180px' }}>
            <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="usesLeft"
            label={t('promotions.usesLeft')}
            style={{ flex: '1 1 140px' }}
            rules={[
              { required: true, message: t('promotions.validation.usesRequired') },
              { type: 'integer', min: 0, max: 1_000_000, message: t('promotions.validation.usesRange') },
            ]}
          >
            <InputNumber precision={0} style={{ width: '100%' }} data-testid="promotion-uses" />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}

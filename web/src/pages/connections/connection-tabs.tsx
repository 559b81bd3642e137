import type { ReactNode } from 'react';
import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Choices } from '../users/use-user-choices';
import { PROVIDERS } from './connections.types';
import { QueueField } from './queue-field';
import { ErrorCode, errorCodeText } from '../../api/errors';

/** The connection form's fields, tab by tab; the modal owns the form, its values and the rules' texts. */

const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
const MESSAGE_ROWS = { minRows: 3, maxRows: 6 };

export function GeneralTab({ queues, sections }: { queues: Choices; sections: ReactNode }) {
  const { t } = useTranslation('connections');
  return (
    <>
      <Row gutter={16} align="bottom">
        <Col xs={24} sm={16}>
          <Form.Item
            name="name"
            label={t('modal.name')}
            rules={[
              { required: true, whitespace: true, message: t('validation.required') },
              { min: 2, transform: trim, message: t('validation.tooShort') },
              { max: 50, transform: trim, message: t('validation.tooLong') },
            ]}
          >
            <Input autoFocus autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="isDefault" label={t('modal.isDefault')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="provider" label={t('modal.provider')}>
        <Select options={PROVIDERS.map((p) => ({ value: p, label: t(`modal.providers.${p}`) }))} />
      </Form.Item>
      <QueueField name="queueIds" label={t('modal.queues')} queues={queues} multiple />
      {sections}
    </>
  );
}

export function MessagesTab() {
  const { t } = useTranslation('connections');
  return (
    <>
      <Form.Item
        name="greetingMessage"
        label={t('modal.greetingMessage')}
        dependencies={['queueIds']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              (getFieldValue('queueIds') as number[] | undefined ?? []).length > 1 && !value?.trim()
                ? Promise.reject(new Error(errorCodeText(ErrorCode.ERR_WAPP_GREETING_REQUIRED, t)))
                : Promise.resolve(),
          }),
        ]}
      >
        <Input.TextArea autoSize={MESSAGE_ROWS} />
      </Form.Item>
      <Form.Item name="complationMessage" label={t('modal.complationMessage')}>
        <Input.TextArea autoSize={MESSAGE_ROWS} />
      </Form.Item>
      <Form.Item name="outOfHoursMessage" label={t('modal.outOfHoursMessage')}>
        <Input.TextArea autoSize={MESSAGE_ROWS} />
      </Form.Item>
      <Form.Item name="expiresInactiveMessage" label={t('modal.expiresInactiveMessage')}>
        <Input.TextArea autoSize={MESSAGE_ROWS} />
      </Form.Item>
    </>
  );
}

export function AssessmentsTab() {
  const { t } = useTranslation('connections');
  return (
    <Form.Item name="ratingMessage" label={t('modal.ratingMessage')}>
      <Input.TextArea autoSize={MESSAGE_ROWS} />
    </Form.Item>
  );
}

export function HoursTab({ queues }: { queues: Choices }) {
  const { t } = useTranslation('connections');
  const count = (name: string, label: string, extra?: string) => (
    <Form.Item name={name} label={label} extra={extra}>
      <InputNumber min={0} precision={0} style={{ width: '100%' }} />
    </Form.Item>
  );
  return (
    <Row gutter={16}>
      <Col xs={24} sm={12}>
        <QueueField name="transferQueueId" label={t('modal.transferQueueId')} queues={queues} placeholder={t('modal.transferNone')} />
      </Col>
      <Col xs={24} sm={12}>
        {count('timeToTransfer', t('modal.timeToTransfer'))}
      </Col>
      <Col xs={24} sm={12}>
        {count('expiresTicket', t('modal.expiresTicket'), t('modal.zeroDisables'))}
      </Col>
      <Col xs={24} sm={12}>
        {count('timeUseBotQueues', t('modal.timeUseBotQueues'), t('modal.zeroDisables'))}
      </Col>
      <Col xs={24} sm={12}>
        {count('maxUseBotQueues', t('modal.maxUseBotQueues'))}
      </Col>
    </Row>
  );
}

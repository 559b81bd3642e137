import { Col, Form, Input, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { registerTranslations, type Translations } from '../i18n';
import { maskCardNumber, maskDocument, maskExpiry, maskPostalCode } from './input-masks';

const cardTranslations: Translations = {
  'pt-BR': {
    number: 'Número do cartão',
    holderName: 'Nome impresso no cartão',
    expiry: 'Validade (MM/AAAA)',
    ccv: 'CCV',
    postalCode: 'CEP',
    addressNumber: 'Número do endereço',
    holderDocument: 'CPF/CNPJ do titular',
    holderPhone: 'Telefone do titular',
    required: 'Obrigatório',
    invalidNumber: 'O número do cartão tem 16 dígitos',
    invalidHolder: 'Apenas letras e espaços',
    invalidExpiry: 'Use MM/AAAA, mês de 01 a 12',
    invalidCcv: 'O CCV tem 3 ou 4 dígitos',
    invalidPostalCode: 'CEP inválido',
    invalidAddressNumber: 'Ao menos 2 caracteres',
    invalidDocument: 'Documento inválido',
    invalidPhone: 'Telefone muito curto',
  },
  en: {
    number: 'Card number',
    holderName: 'Name on the card',
    expiry: 'Expiry (MM/YYYY)',
    ccv: 'CCV',
    postalCode: 'Postal code (CEP)',
    addressNumber: 'Address number',
    holderDocument: 'Card holder’s CPF/CNPJ',
    holderPhone: 'Card holder’s phone',
    required: 'Required',
    invalidNumber: 'The card number has 16 digits',
    invalidHolder: 'Letters and spaces only',
    invalidExpiry: 'Use MM/YYYY, month 01 to 12',
    invalidCcv: 'The CCV has 3 or 4 digits',
    invalidPostalCode: 'Invalid postal code',
    invalidAddressNumber: 'At least 2 characters',
    invalidDocument: 'Invalid document',
    invalidPhone: 'Phone too short',
  },
  es: {
    number: 'Número de la tarjeta',
    holderName: 'Nombre en la tarjeta',
    expiry: 'Vencimiento (MM/AAAA)',
    ccv: 'CCV',
    postalCode: 'Código postal (CEP)',
    addressNumber: 'Número de la dirección',
    holderDocument: 'CPF/CNPJ del titular',
    holderPhone: 'Teléfono del titular',
    required: 'Obligatorio',
    invalidNumber: 'El número de la tarjeta tiene 16 dígitos',
    invalidHolder: 'Solo letras y espacios',
    invalidExpiry: 'Use MM/AAAA, mes de 01 a 12',
    invalidCcv: 'El CCV tiene 3 o 4 dígitos',
    invalidPostalCode: 'Código postal no válido',
    invalidAddressNumber: 'Al menos 2 caracteres',
    invalidDocument: 'Documento no válido',
    invalidPhone: 'Teléfono demasiado corto',
  },
};

registerTranslations('card', cardTranslations);

/** A card as typed in CardFields (masked; the expiry as MM/YYYY). */
export interface CardFieldValues {
  number: string;
  holderName: string;
  expiry: string;
  ccv: string;
  postalCode: string;
  addressNumber: string;
  /** With `holder`: the holder's CPF/CNPJ and phone, which the provider asks with a card. */
  holderCpfCnpj?: string;
  holderPhone?: string;
}

/** The card as the API takes it (spec §3 Card): the expiry split into month and year. */
export function cardOf(values: CardFieldValues) {
  const [expiryMonth, expiryYear] = values.expiry.split('/');
  const { expiry: _expiry, ...rest } = values;
  return { ...rest, expiryMonth, expiryYear };
}

/**
 * The spec's card form items (§5 Card, §9 masks), inside the caller's Form: the billing page's card
 * tab and the signup's Cartão step. `prefix` nests them (`card.number`); `holder` adds the holder's
 * CPF/CNPJ and phone. The server checks them again; the number goes to the provider only.
 */
export function CardFields({ prefix, holder = false }: { prefix?: string; holder?: boolean }) {
  const { t } = useTranslation('card');
  const name = (field: keyof CardFieldValues) => (prefix ? [prefix, field] : field);
  const required = { required: true, message: t('required') };
  const digitsOnly = (max: number) => (v: string) => v.replace(/\D/g, '').slice(0, max);
  return (
    <>
      <Form.Item name={name('number')} label={t('number')} normalize={maskCardNumber} rules={[required, { pattern: /^\d{4} \d{4} \d{4} \d{4}$/, message: t('invalidNumber') }]}>
        <Input inputMode="numeric" autoComplete="cc-number" placeholder="0000 0000 0000 0000" />
      </Form.Item>
      <Form.Item name={name('holderName')} label={t('holderName')} rules={[required, { pattern: /^[\p{L} ]+$/u, message: t('invalidHolder') }]}>
        <Input autoComplete="cc-name" />
      </Form.Item>
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item name={name('expiry')} label={t('expiry')} normalize={maskExpiry} rules={[required, { pattern: /^(0[1-9]|1[0-2])\/\d{4}$/, message: t('invalidExpiry') }]}>
            <Input inputMode="numeric" autoComplete="cc-exp" placeholder="MM/AAAA" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name={name('ccv')} label={t('ccv')} normalize={digitsOnly(4)} rules={[required, { pattern: /^\d{3,4}$/, message: t('invalidCcv') }]}>
            <Input inputMode="numeric" autoComplete="cc-csc" />
          </Form.Item>
        </Col>
        {holder ? (
          <>
            <Col xs={24} sm={12}>
              <Form.Item name={name('holderCpfCnpj')} label={t('holderDocument')} normalize={maskDocument} rules={[required, { pattern: /^(\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2})$/, message: t('invalidDocument') }]}>
                <Input inputMode="numeric" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name={name('holderPhone')} label={t('holderPhone')} rules={[required, { min: 10, message: t('invalidPhone') }]}>
                <Input inputMode="tel" autoComplete="tel" />
              </Form.Item>
            </Col>
          </>
        ) : null}
        <Col xs={24} sm={12}>
          <Form.Item name={name('postalCode')} label={t('postalCode')} normalize={maskPostalCode} rules={[required, { pattern: /^\d{5}-\d{3}$/, message: t('invalidPostalCode') }]}>
            <Input inputMode="numeric" autoComplete="postal-code" placeholder="99999-999" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name={name('addressNumber')} label={t('addressNumber')} rules={[required, { min: 2, message: t('invalidAddressNumber') }]}>
            <Input />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}

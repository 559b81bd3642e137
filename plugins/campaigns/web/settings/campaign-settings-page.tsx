import { useEffect } from 'react';
import { Alert, App, Button, Card, Col, Flex, Form, Input, InputNumber, Row, Select, Spin, Tag, Tooltip, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, ApiError, ErrorCode, errorText, isAdmin, queryKeys, useApiQuery, useAuth, useGateContext, useQueryClient, useSubmitGuard } from 'atende/web';
import type { CampaignSettingsEvent, CampaignSettingsList, CampaignSettingsValues } from '../../settings/campaign-settings.contract';

/** The spec's options (§9) and the words that always opt out (the server's lists). */
const MESSAGE_INTERVALS = [0, 5, 10, 15, 20];
const INTERVALS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120];
const DEFAULT_OPT_OUT_WORDS = ['SAIR', 'PARAR', 'STOP', 'CANCELAR'];
const BUILT_IN = ['nome', 'numero', 'email'];
const PATH = '/campaign-settings';

function valuesOf(list: CampaignSettingsList): CampaignSettingsValues {
  return Object.fromEntries(list.map(({ key, value }) => [key, value])) as unknown as CampaignSettingsValues;
}

/** /campaigns-config: the pacing selects, custom variables, opt-out words and daily cap; admins save, others read. */
export default function CampaignSettingsPage() {
  const { t } = useTranslation('campaigns');
  const { message } = App.useApp();
  const { user, realtime } = useAuth();
  const gates = useGateContext();
  const admin = gates ? isAdmin(gates) : false;
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CampaignSettingsValues>();
  const settings = useApiQuery<CampaignSettingsList>(PATH);
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  useEffect(() => {
    if (settings.data) form.setFieldsValue(valuesOf(settings.data));
  }, [settings.data, form]);

  // Another admin's save arrives live.
  useEffect(() => {
    if (!user) return;
    return realtime.on(`company-${user.companyId}-campaignSettings`, (data) => queryClient.setQueryData(queryKeys.records(PATH), (data as CampaignSettingsEvent).settings));
  }, [user, realtime, queryClient]);

  const seconds = (n: number) => ({ value: n, label: n === 0 ? t('settings.noInterval') : t('settings.seconds', { count: n }) });
  const messages = (n: number) => ({ value: n, label: n === 0 ? t('settings.notSet') : t('settings.messages', { count: n }) });

  const submit = (values: CampaignSettingsValues) =>
    guard(
      async () => {
        try {
          return await api.post<CampaignSettingsList>(PATH, {
            settings: { ...values, variables: (values.variables ?? []).map((v) => ({ key: v.key.trim(), value: v.value ?? '' })), optOutWords: values.optOutWords ?? [] },
          });
        } catch (err) {
          if (err instanceof ApiError && err.code === ErrorCode.ERR_VALIDATION) {
            const issues = (err.details?.issues ?? []) as { path: string; message: string }[];
            form.setFields(issues.map((i) => ({ name: i.path.split('.').slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p)) as never, errors: [i.message] })));
            return null;
          }
          throw err;
        }
      },
      (saved) => {
        if (!saved) return;
        queryClient.setQueryData(queryKeys.records(PATH), saved);
        void message.success(t('settings.saved'));
      },
    );

  if (settings.isError) return <Alert type="error" showIcon title={errorText(settings.error, t)} />;

  return (
    <Flex vertical gap={12} style={{ maxWidth: 880 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('settings.title')}
      </Typography.Title>
      {!admin ? <Alert type="info" showIcon title={t('settings.adminOnly')} /> : null}
      <Spin spinning={settings.isLoading}>
        <Form<CampaignSettingsValues> form={form} name="campaignSettings" layout="vertical" onFinish={submit} disabled={!admin || saving} requiredMark={false}>
          <Flex vertical gap={12}>
            <Card size="small" title={t('settings.intervals')}>
              <Row gutter={16}>
                <Col xs={24} md={8}>
                  <Form.Item name="messageInterval" label={t('settings.messageInterval')}>
                    <Select options={MESSAGE_INTERVALS.map(seconds)} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item name="longerIntervalAfter" label={t('settings.longerIntervalAfter')}>
                    <Select options={INTERVALS.map(messages)} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item name="greaterInterval" label={t('settings.greaterInterval')}>
                    <Select options={INTERVALS.map(seconds)} />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item name="dailyCap" label={t('settings.dailyCap')} extra={t('settings.dailyCapHint')} rules={[{ required: true, message: t('validation.required') }]} style={{ marginBottom: 0 }}>
                <InputNumber min={1} max={100000} precision={0} style={{ width: 180 }} />
              </Form.Item>
            </Card>

            <Card size="small" title={t('settings.variables')}>
              <Typography.Paragraph type="secondary">{t('settings.variablesHint')}</Typography.Paragraph>
              <Form.List name="variables">
                {(fields, { add, remove }) => (
                  <Flex vertical gap={8}>
                    {fields.length === 0 ? <Typography.Text type="secondary">{t('settings.noVariables')}</Typography.Text> : null}
                    {fields.map((field, index) => (
                      <Flex key={field.key} gap={8} align="flex-start" wrap data-testid="campaign-variable">
                        <Form.Item
                          name={[field.name, 'key']}
                          style={{ flex: '1 1 140px', marginBottom: 0 }}
                          rules={[
                            { required: true, whitespace: true, message: t('validation.required') },
                            { max: 30, message: t('validation.tooLong') },
                            { pattern: /^[\p{L}\p{N}_]+$/u, message: t('settings.keyFormat') },
                            { validator: (_, v?: string) => (v && BUILT_IN.includes(v.trim().toLowerCase()) ? Promise.reject(new Error(t('settings.builtIn'))) : Promise.resolve()) },
                            {
                              validator: (_, v?: string) => {
                                const keys = ((form.getFieldValue('variables') ?? []) as { key?: string }[]).map((x) => x?.key?.trim().toLowerCase());
                                return v && keys.filter((k) => k === v.trim().toLowerCase()).length > 1 ? Promise.reject(new Error(t('settings.repeated'))) : Promise.resolve();
                              },
                            },
                          ]}
                        >
                          <Input placeholder={t('settings.variableKey')} aria-label={`${t('settings.variableKey')} ${index + 1}`} maxLength={30} prefix="{" suffix="}" />
                        </Form.Item>
                        <Form.Item name={[field.name, 'value']} style={{ flex: '3 1 220px', marginBottom: 0 }} rules={[{ max: 1000, message: t('validation.tooLong') }]}>
                          <Input placeholder={t('settings.variableValue')} aria-label={`${t('settings.variableValue')} ${index + 1}`} />
                        </Form.Item>
                        <Tooltip title={t('settings.removeVariable', { index: index + 1 })}>
                          <Button type="text" icon={<MinusCircleOutlined />} aria-label={t('settings.removeVariable', { index: index + 1 })} onClick={() => remove(field.name)} />
                        </Tooltip>
                      </Flex>
                    ))}
                    <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ key: '', value: '' })} block>
                      {t('settings.addVariable')}
                    </Button>
                  </Flex>
                )}
              </Form.List>
            </Card>

            <Card size="small" title={t('settings.optOut')}>
              <Typography.Paragraph type="secondary">{t('settings.optOutHint')}</Typography.Paragraph>
              <Flex gap={4} wrap style={{ marginBottom: 8 }} data-testid="default-opt-out-words">
                {DEFAULT_OPT_OUT_WORDS.map((word) => (
                  <Tag key={word}>{word}</Tag>
                ))}
              </Flex>
              <Form.Item
                name="optOutWords"
                style={{ marginBottom: 0 }}
                normalize={(words: string[]) => [...new Set((words ?? []).map((w) => w.trim().toUpperCase()).filter((w) => w && !DEFAULT_OPT_OUT_WORDS.includes(w)))]}
                rules={[{ validator: (_, words?: string[]) => ((words ?? []).some((w) => /\s/.test(w)) ? Promise.reject(new Error(t('settings.oneWord'))) : Promise.resolve()) }]}
              >
                <Select mode="tags" open={false} suffixIcon={null} placeholder={t('settings.optOutPlaceholder')} aria-label={t('settings.optOut')} tokenSeparators={[',', ' ']} />
              </Form.Item>
            </Card>

            {admin ? (
              <Flex justify="flex-end">
                <Button type="primary" htmlType="submit" loading={saving}>
                  {t('settings.save')}
                </Button>
              </Flex>
            ) : null}
          </Flex>
        </Form>
      </Spin>
    </Flex>
  );
}

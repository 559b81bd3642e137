import { useId, type ReactNode } from 'react';
import { App, Col, Form, Input, Modal, Row, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, setToken } from '../../api/client';
import { errorText } from '../../api/errors';
import type { Profile, UserUpdateBody, UserView } from '../../api/types';
import { useAuth } from '../../auth/auth-provider';
import { ModalFooter } from '../../components/modal-footer';
import { useLoadOnOpen } from '../../components/use-load-on-open';
import { useSubmitGuard } from '../../components/use-submit-guard';
import { registerTranslations } from '../../i18n';
import { can } from './permissions';
import { useChoices, type Choice, type Choices } from './use-user-choices';
import { usersTranslations } from './users.i18n';
import { ColorChip } from '../../components/color-chip';

registerTranslations('users', usersTranslations);

/** PUT answers a fresh access token when users change their own password. */
type SavedUser = UserView & { token?: string };

interface FormValues {
  name: string;
  email: string;
  password?: string;
  profile: Profile;
  queueIds: number[];
  /** Empty (undefined) when the user has no default connection: the select shows its placeholder. */
  whatsappId?: number;
  allTicket: 'enabled' | 'disabled';
}

export interface UserModalProps {
  open: boolean;
  /** null creates a user. */
  userId: number | null;
  /**
   * The user's company when it is another than the caller's (a super user's Empresas tab): created
   * there; that company's queues and connections are not the caller's lists, so the form leaves them out.
   */
  companyId?: number;
  onClose(): void;
  onSaved(user: UserView): void;
}

const PROFILES: Profile[] = ['admin', 'user', 'supervisor'];
const DEFAULTS: FormValues = { name: '', email: '', password: '', profile: 'user', queueIds: [], allTicket: 'disabled' };

const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

function toForm(user: UserView): FormValues {
  return {
    name: user.name,
    email: user.email,
    password: '',
    profile: user.profile,
    queueIds: user.queues.map((q) => q.id),
    whatsappId: user.whatsappId ?? undefined,
    allTicket: user.allTicket,
  };
}

/**
 * A field whose options come from the server: while they load, or when that list does not exist
 * on this server, an empty disabled select stands in (the form keeps the value it had).
 */
function ChoiceField({ name, label, choices, multiple, children }: { name: keyof FormValues; label: string; choices: Choices; multiple?: boolean; children: ReactNode }) {
  const { t } = useTranslation('users');
  const ready = choices.status === 'ready';
  return (
    <>
      <Form.Item name={name} label={label} hidden={!ready}>
        {children}
      </Form.Item>
      {ready ? null : (
        <Form.Item label={label}>
          <Select
            disabled
            mode={multiple ? 'multiple' : undefined}
            loading={choices.status === 'loading'}
            placeholder={choices.status === 'unavailable' ? t('modal.unavailable') : undefined}
          />
        </Form.Item>
      )}
    </>
  );
}

/**
 * Create or edit a user; also the own profile from the account menu. Profile, queues, default
 * connection and 'see tickets without a queue' are for admins (user-modal:editProfile and
 * user-modal:editQueues); everyone may change their own name, e-mail and password.
 */
export function UserModal({ open, userId, companyId, onClose, onSaved }: UserModalProps) {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const { user: me } = useAuth();
  const [form] = Form.useForm<FormValues>();
  // Field ids derive from the form's name: the page's modal and the account menu's must differ.
  const formName = `user-${useId()}`;
  const editProfile = can(me, 'user-modal:editProfile');
  const editQueues = can(me, 'user-modal:editQueues');
  const otherCompany = companyId !== undefined && companyId !== me?.companyId;
  const ownLists = editQueues && !otherCompany;
  const queues = useChoices('/queue', open && ownLists);
  const connections = useChoices('/whatsapp', open && ownLists);
  const creating = userId === null;

  // Callers may pass a new onClose on every render; loading the user must not restart for that.
  const loading = useLoadOnOpen<UserView>({
    open,
    path: userId === null ? null : `/users/${userId}`,
    onOpen: () => form.resetFields(),
    onLoad: (user) => form.setFieldsValue(toForm(user)),
    errorText: (err) => errorText(err, t),
    onClose,
  });
  const { saving, guard } = useSubmitGuard((err) => errorText(err, t));

  // One body for both: an admin creates (with every field), anyone edits their own name, e-mail and password.
  const body = (values: FormValues): UserUpdateBody => {
    const own = { name: values.name.trim(), email: values.email.trim(), ...(values.password ? { password: values.password } : {}) };
    if (!editQueues) return own;
    return {
      ...own,
      profile: values.profile,
      allTicket: values.allTicket,
      ...(queues.status === 'ready' ? { queueIds: values.queueIds } : {}),
      ...(connections.status === 'ready' ? { whatsappId: values.whatsappId ?? null } : {}),
    };
  };

  const submit = (values: FormValues) =>
    guard(
      () =>
        creating
          ? api.post<SavedUser>('/users', { ...body(values), ...(otherCompany ? { companyId } : {}) })
          : api.put<SavedUser>(`/users/${userId}`, body(values)),
      ({ token, ...saved }) => {
        // Changing one's own password ends the other sessions; this one continues with the new token.
        if (token) setToken(token);
        void message.success(t('common:toasts.success'));
        onSaved(saved);
        onClose();
      },
    );

  const required = { required: true, whitespace: true, message: t('validation.required') };
  const choiceOptions = (choices: { items: Choice[] }) => choices.items.map((c) => ({ value: c.id, label: c.name }));

  return (
    <Modal
      open={open}
      title={t(creating ? 'modal.addTitle' : 'modal.editTitle')}
      onCancel={onClose}
      forceRender
      width={600}
      footer={<ModalFooter onCancel={onClose} onSave={() => form.submit()} saving={saving} loading={loading} />}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} name={formName} layout="vertical" initialValues={DEFAULTS} onFinish={submit} disabled={saving} requiredMark={false}>
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              <Form.Item
                name="name"
                label={t('modal.name')}
                rules={[
                  required,
                  { min: 2, transform: trim, message: t('validation.tooShort') },
                  { max: 50, transform: trim, message: t('validation.tooLong') },
                ]}
              >
                <Input autoFocus autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name="email"
                label={t('modal.email')}
                rules={[required, { type: 'email', transform: trim, message: t('validation.invalidEmail') }]}
              >
                <Input autoComplete="off" inputMode="email" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name="password"
                label={t('modal.password')}
                rules={[
                  ...(creating ? [{ required: true, message: t('validation.required') }] : []),
                  { min: 5, message: t('validation.tooShort') },
                  { max: 50, message: t('validation.tooLong') },
                ]}
              >
                <Input.Password autoComplete="new-password" placeholder={creating ? undefined : t('modal.passwordKeep')} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="profile" label={t('modal.profile')} rules={[{ required: true, message: t('validation.required') }]}>
                <Select disabled={!editProfile} options={PROFILES.map((p) => ({ value: p, label: t(`profiles.${p}`) }))} />
              </Form.Item>
            </Col>
          </Row>
          {ownLists ? (
            <ChoiceField name="queueIds" label={t('modal.queues')} choices={queues} multiple>
              <Select
                mode="multiple"
                allowClear
                options={choiceOptions(queues)}
                optionFilterProp="label"
                tagRender={({ value, label, onClose: remove, closable }) => (
                  <ColorChip color={queues.items.find((q) => q.id === value)?.color} closable={closable} onClose={remove} style={{ marginInlineEnd: 4 }}>
                    {label}
                  </ColorChip>
                )}
              />
            </ChoiceField>
          ) : null}
          {editQueues ? (
            <Row gutter={16}>
              {ownLists ? (
                <Col xs={24} sm={12}>
                  <ChoiceField name="whatsappId" label={t('modal.whatsapp')} choices={connections}>
                    <Select allowClear placeholder={t('modal.whatsappNone')} options={choiceOptions(connections)} />
                  </ChoiceField>
                </Col>
              ) : null}
              <Col xs={24} sm={12}>
                <Form.Item name="allTicket" label={t('modal.allTicket')}>
                  <Select
                    options={[
                      { value: 'enabled', label: t('modal.enabled') },
                      { value: 'disabled', label: t('modal.disabled') },
                    ]}
                  />
                </Form.Item>
              </Col>
            </Row>
          ) : null}
        </Form>
      </Spin>
    </Modal>
  );
}

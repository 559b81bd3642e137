import { useState } from 'react';
import { Button, Card, Empty, Flex, Input, Space, Tooltip, Typography, theme } from 'antd';
import { CheckOutlined, CloseOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { registerTranslations } from '../../i18n';
import { useCompanyClock } from '../../layout/use-company-clock';
import { todolistTranslations } from './todolist.i18n';
import { useTodoList, type Task } from './use-todo-list';

registerTranslations('todolist', todolistTranslations);

/** One task: its text and date, or an input while it is edited (Enter saves, Escape cancels). */
function TaskRow({ task, first, onEdit, onRemove }: { task: Task; first: boolean; onEdit(text: string): void; onRemove(): void }) {
  const { t } = useTranslation('todolist');
  const { token } = theme.useToken();
  const clock = useCompanyClock();
  const [draft, setDraft] = useState<string | null>(null);
  const save = () => {
    if (draft !== null) onEdit(draft);
    setDraft(null);
  };

  return (
    <Flex align="center" gap={8} style={{ padding: '12px 16px', borderTop: first ? undefined : `1px solid ${token.colorBorderSecondary}` }} data-testid="todo-item">
      {draft === null ? (
        <>
          <Flex vertical style={{ flex: 1, minWidth: 0 }}>
            <Typography.Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{task.text}</Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
              {task.updatedAt ? t('edited', { date: clock.format(task.updatedAt) }) : t('created', { date: clock.format(task.createdAt) })}
            </Typography.Text>
          </Flex>
          <Tooltip title={t('edit')}>
            <Button type="text" icon={<EditOutlined />} aria-label={t('edit')} onClick={() => setDraft(task.text)} />
          </Tooltip>
          <Tooltip title={t('delete')}>
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('delete')} onClick={onRemove} />
          </Tooltip>
        </>
      ) : (
        <>
          <Input
            autoFocus
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onPressEnter={save}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setDraft(null);
            }}
            aria-label={t('editInput')}
            style={{ flex: 1, minWidth: 0 }}
          />
          <Tooltip title={t('common:actions.save')}>
            <Button type="text" icon={<CheckOutlined />} aria-label={t('common:actions.save')} onClick={save} />
          </Tooltip>
          <Tooltip title={t('common:actions.cancel')}>
            <Button type="text" icon={<CloseOutlined />} aria-label={t('common:actions.cancel')} onClick={() => setDraft(null)} />
          </Tooltip>
        </>
      )}
    </Flex>
  );
}

/** /todolist: the user's own tasks, kept in this browser. */
export default function TodolistPage() {
  const { t } = useTranslation('todolist');
  const { token } = theme.useToken();
  const { tasks, add, edit, remove } = useTodoList();
  const [text, setText] = useState('');
  const submit = () => {
    if (add(text)) setText('');
  };

  return (
    <Flex vertical gap={16} style={{ maxWidth: 760 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('title')}
      </Typography.Title>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          onPressEnter={submit}
          placeholder={t('placeholder')}
          aria-label={t('placeholder')}
          maxLength={500}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={submit}>
          {t('add')}
        </Button>
      </Space.Compact>
      <Card styles={{ body: { padding: 0 } }}>
        {tasks.length === 0 ? (
          <Empty description={t('empty')} style={{ padding: token.paddingLG }} />
        ) : (
          tasks.map((task, index) => <TaskRow key={task.id} task={task} first={index === 0} onEdit={(value) => edit(task.id, value)} onRemove={() => remove(task.id)} />)
        )}
      </Card>
    </Flex>
  );
}

import { Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { App, Button, Flex, Input, theme, Tooltip } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { AudioOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ChatMessage, Ticket } from '../../../api/types';
import { errorText } from '../../../api/errors';
import { useAuth, useGateContext } from '../../../auth/auth-provider';
import { useCompanyClock } from '../../../layout/use-company-clock';
import { registerTranslations } from '../../../i18n';
import { pluginNamespaces, visibleComposerActions } from '../../registry';
import { quickMessagesTranslations } from '../../quick-messages/quick-messages.i18n';
import { useElementWidth } from '../conversation/use-element-width';
import { ATTACHMENT_ACCEPT, AttachmentPreview, refusal } from './attachment-preview';
import { ComposerTools } from './composer-tools';
import { composerTranslations } from './composer.i18n';
import { greetingOf, insertAt, matchingReplies, renderVariables, shortcodeQuery, signBody, type QuickReply } from './compose-text';
import { optionId, PICKER_ID, QuickReplyPicker, useQuickReplies } from './quick-reply-picker';
import { RecordingBar } from './recording-bar';
import { ReplyPreview } from './reply-preview';
import { sendFiles, sendQuickReplyMedia, sendText } from './send-message';
import { MIN_AUDIO_BYTES, RecorderError, useAudioRecorder } from './use-audio-recorder';
import { useSignOption } from './use-sign-option';

registerTranslations('composer', composerTranslations);
// The emoji picker is the quick-reply dialog's, with its strings.
registerTranslations('quickMessages', quickMessagesTranslations);

/** Under this width the variables and the sign option fold into one menu. */
const COMPACT_WIDTH = 520;

export interface MessageComposerProps {
  ticket: Ticket;
  /** The message being answered (shown above the input, sent as quotedMsg), or null. */
  replyingTo: ChatMessage | null;
  /** Clears the reply-to after a send or when the user closes it. */
  onClearReply: () => void;
}

/** The message input of a conversation; a new ticket starts from an empty composer. */
export default function MessageComposer(props: MessageComposerProps) {
  return <Composer key={props.ticket.id} {...props} />;
}

function Composer({ ticket, replyingTo, onClearReply }: MessageComposerProps) {
  const { t } = useTranslation('composer');
  const { message } = App.useApp();
  const { user } = useAuth();
  const clock = useCompanyClock();
  const { token } = theme.useToken();
  const [sign, toggleSign] = useSignOption();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [caption, setCaption] = useState('');
  const [sending, setSending] = useState(false);
  const busy = useRef(false);
  const [box, width] = useElementWidth<HTMLDivElement>();
  const input = useRef<TextAreaRef>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const compact = width > 0 && width < COMPACT_WIDTH;
  const recorder = useAudioRecorder();
  const { cancel: cancelRecording } = recorder;

  // The plugins' tools (a file list to send, ...), each shown once its label's strings are in.
  const gates = useGateContext();
  const gated = useMemo(() => (gates ? visibleComposerActions(gates) : []), [gates]);
  const { t: tPlugin, i18n } = useTranslation(pluginNamespaces, { useSuspense: false });
  const actions = gated.filter((action) => i18n.exists(action.labelKey)).map((action) => ({ key: action.key, label: tPlugin(action.labelKey), icon: action.icon }));
  const [activeAction, setActiveAction] = useState<string | null>(null);
  const Panel = gated.find((action) => action.key === activeAction)?.panel;

  const hint = ticket.status === 'pending' ? t('hint.pending') : ticket.status === 'closed' ? t('hint.closed') : null;
  const disabled = hint !== null;

  // The '/' picker: open while a shortcode is typed, until Escape for that text.
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const query = disabled || dismissedFor === text ? null : shortcodeQuery(text);
  const replies = useQuickReplies(query !== null);
  const matches = query === null ? [] : matchingReplies(replies, query);
  const pickerOpen = matches.length > 0;
  const [cursor, setCursor] = useState({ query: '', index: 0 });
  const active = cursor.query === query ? Math.min(cursor.index, matches.length - 1) : 0;
  const setActive = (index: number) => setCursor({ query: query ?? '', index });

  const textArea = () => input.current?.resizableTextArea?.textArea ?? null;
  const focusInput = useCallback(() => input.current?.focus(), []);

  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    const element = input.current?.resizableTextArea?.textArea;
    if (caret === null || !element) return;
    pendingCaret.current = null;
    element.focus();
    element.setSelectionRange(caret, caret);
  }, [text]);

  // Desktop agents type right away; on touch screens the keyboard would cover the conversation.
  useEffect(() => {
    if (!disabled && window.matchMedia('(pointer: fine)').matches) focusInput();
  }, [disabled, focusInput]);
  const replyId = replyingTo?.id;
  useEffect(() => {
    if (replyId !== undefined) focusInput();
  }, [replyId, focusInput]);
  useEffect(() => {
    if (disabled) cancelRecording();
  }, [disabled, cancelRecording]);

  const insert = (value: string) => {
    const element = textArea();
    const next = insertAt(text, element?.selectionStart ?? text.length, element?.selectionEnd ?? text.length, value);
    pendingCaret.current = next.caret;
    setText(next.text);
  };

  /** The body as the customer gets it: variables filled in, then the agent's signature. */
  const prepare = (raw: string) => {
    const rendered = renderVariables(raw.trim(), {
      name: ticket.contact.name,
      ticketId: ticket.id,
      now: new Date(),
      timeZone: clock.zone,
      greeting: (hour) => t(`greetings.${greetingOf(hour)}`),
    });
    return signBody(rendered, user?.name ?? '', sign);
  };

  /** One send at a time; a failure is shown as a toast and answers false. */
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    if (busy.current) return false;
    busy.current = true;
    setSending(true);
    try {
      await work();
      return true;
    } catch (err) {
      void message.error(errorText(err, t));
      return false;
    } finally {
      busy.current = false;
      setSending(false);
    }
  };

  const quotedId = replyingTo?.id ?? null;
  const afterSend = () => {
    if (quotedId !== null) onClearReply();
    focusInput();
  };

  const sendTyped = async () => {
    const raw = text;
    if (disabled || !raw.trim() || busy.current) return;
    setText('');
    if (await run(() => sendText(ticket.id, prepare(raw), quotedId))) afterSend();
    else setText((current) => current || raw);
  };

  const pick = async (reply: QuickReply) => {
    if (!reply.mediaPath) {
      pendingCaret.current = reply.message.length;
      setText(reply.message);
      return;
    }
    const typed = text;
    setText('');
    if (await run(() => sendQuickReplyMedia(ticket.id, reply.id, prepare(reply.message), quotedId))) afterSend();
    else setText((current) => current || typed);
  };

  const addFiles = (chosen: File[]) => {
    const accepted = chosen.filter((file) => {
      const refused = refusal(file);
      if (refused) void message.warning(t(`attachments.${refused}`, { name: file.name }));
      return !refused;
    });
    if (accepted.length === 0) return;
    // What was typed becomes the caption, and comes back if the files are cancelled.
    if (files.length === 0) {
      setCaption(text);
      setText('');
    }
    setFiles((current) => [...current, ...accepted]);
  };

  const closeAttachments = () => {
    setText(caption);
    setFiles([]);
    setCaption('');
    pendingCaret.current = caption.length;
  };

  const sendAttachments = async () => {
    if (files.length === 0) return;
    if (await run(() => sendFiles(ticket.id, files, { caption: prepare(caption), quotedId }))) {
      setFiles([]);
      setCaption('');
      afterSend();
    }
  };

  const startRecording = async () => {
    try {
      await recorder.start();
    } catch (err) {
      void message.error(t(err instanceof RecorderError && err.reason === 'unsupported' ? 'audio.unsupported' : 'audio.denied'));
    }
  };

  const sendRecording = async () => {
    const file = await recorder.finish();
    if (!file) return;
    if (file.size < MIN_AUDIO_BYTES) {
      void message.warning(t('audio.tooShort'));
      return;
    }
    if (await run(() => sendFiles(ticket.id, [file], { caption: '', quotedId, ptt: true }))) afterSend();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (pickerOpen) {
      const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
      if (step !== 0) {
        event.preventDefault();
        setActive((active + step + matches.length) % matches.length);
      } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        event.preventDefault();
        void pick(matches[active]!);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        setDismissedFor(text);
      }
      return;
    }
    if (event.key === 'Escape' && replyingTo) {
      event.preventDefault();
      onClearReply();
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void sendTyped();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = Array.from(event.clipboardData.files).filter((file) => file.type.startsWith('image/'));
    if (images.length === 0) return;
    event.preventDefault();
    addFiles(images);
  };

  const dropping = (event: DragEvent) => !disabled && event.dataTransfer.types.includes('Files');
  const onDragOver = (event: DragEvent) => {
    if (dropping(event)) event.preventDefault();
  };
  const onDrop = (event: DragEvent) => {
    if (!dropping(event)) return;
    event.preventDefault();
    addFiles(Array.from(event.dataTransfer.files));
  };

  const action =
    text !== '' || sending ? (
      <Tooltip title={t('send')}>
        <Button
          type="primary"
          shape="circle"
          icon={<SendOutlined />}
          aria-label={t('send')}
          loading={sending}
          disabled={!text.trim() && !sending}
          onClick={() => void sendTyped()}
        />
      </Tooltip>
    ) : (
      <Tooltip title={t('audio.record')}>
        <Button type="text" shape="circle" icon={<AudioOutlined />} aria-label={t('audio.record')} onClick={() => void startRecording()} />
      </Tooltip>
    );

  const textInput = (
    <Input.TextArea
      ref={input}
      value={text}
      disabled={disabled}
      placeholder={hint ?? t('placeholder')}
      aria-label={t('placeholder')}
      autoSize={{ minRows: 1, maxRows: 5 }}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={onKeyDown}
      onPaste={onPaste}
      aria-controls={pickerOpen ? PICKER_ID : undefined}
      aria-activedescendant={pickerOpen ? optionId(active) : undefined}
      aria-autocomplete="list"
      style={{ flex: 1, minWidth: 0, resize: 'none' }}
      data-testid="composer-input"
    />
  );

  let body;
  if (disabled) body = textInput;
  else if (files.length > 0)
    body = (
      <AttachmentPreview
        files={files}
        caption={caption}
        sending={sending}
        onCaption={setCaption}
        onRemove={(index) => (files.length === 1 ? closeAttachments() : setFiles((current) => current.filter((_, i) => i !== index)))}
        onAdd={() => fileInput.current?.click()}
        onCancel={closeAttachments}
        onSend={() => void sendAttachments()}
      />
    );
  else if (recorder.state !== 'idle')
    body = <RecordingBar startedAt={recorder.startedAt} onCancel={cancelRecording} onSend={() => void sendRecording()} />;
  else
    body = (
      <Flex align="flex-end" gap={4}>
        <ComposerTools
          compact={compact}
          sign={sign}
          onToggleSign={toggleSign}
          onInsert={insert}
          onAttach={() => fileInput.current?.click()}
          actions={actions}
          onAction={setActiveAction}
        />
        {textInput}
        {action}
      </Flex>
    );

  return (
    <div
      ref={box}
      onDragOver={onDragOver}
      onDrop={onDrop}
      data-testid="message-composer"
      style={{ position: 'relative', padding: '8px 12px', borderTop: `1px solid ${token.colorBorderSecondary}`, background: token.colorBgContainer }}
    >
      {pickerOpen && <QuickReplyPicker replies={matches} active={active} onActive={setActive} onPick={(reply) => void pick(reply)} />}
      {replyingTo && !disabled && <ReplyPreview message={replyingTo} contactName={ticket.contact.name} onClose={onClearReply} />}
      {body}
      {Panel && !disabled ? (
        <Suspense fallback={null}>
          <Panel ticket={ticket} onClose={() => setActiveAction(null)} />
        </Suspense>
      ) : null}
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        accept={ATTACHMENT_ACCEPT}
        data-testid="composer-file-input"
        onChange={(event) => {
          addFiles(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
    </div>
  );
}

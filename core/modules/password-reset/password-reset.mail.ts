import type { MailLanguage, MailMessage } from '../../mail/mail.service.js';

interface ResetTexts {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  action: string;
  expiry: string;
  ignore: string;
}

const TEXTS: Record<MailLanguage, ResetTexts> = {
  'pt-BR': {
    subject: 'Recuperação de senha',
    greeting: (name) => `Olá, ${name}!`,
    intro: 'Recebemos um pedido para redefinir a senha da sua conta. Para escolher uma nova senha, abra o link abaixo:',
    action: 'Redefinir senha',
    expiry: 'O link vale por uma hora e pode ser usado uma única vez.',
    ignore: 'Se você não pediu a recuperação, ignore este e-mail: a sua senha continua a mesma.',
  },
  en: {
    subject: 'Password recovery',
    greeting: (name) => `Hello, ${name}!`,
    intro: 'We received a request to reset the password of your account. To choose a new password, open the link below:',
    action: 'Reset password',
    expiry: 'The link is valid for one hour and can be used only once.',
    ignore: 'If you did not ask for this, ignore this e-mail: your password stays the same.',
  },
  es: {
    subject: 'Recuperación de contraseña',
    greeting: (name) => `¡Hola, ${name}!`,
    intro: 'Recibimos una solicitud para restablecer la contraseña de su cuenta. Para elegir una nueva contraseña, abra el enlace de abajo:',
    action: 'Restablecer contraseña',
    expiry: 'El enlace es válido por una hora y se puede usar una sola vez.',
    ignore: 'Si usted no lo solicitó, ignore este correo: su contraseña sigue siendo la misma.',
  },
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The recovery e-mail, in the language of the page that asked for it. */
export function resetMail(language: MailLanguage, to: { email: string; name: string }, link: string): MailMessage {
  const t = TEXTS[language];
  const paragraphs = [t.greeting(to.name), t.intro];
  const notes = [t.expiry, t.ignore];
  const text = [...paragraphs, link, ...notes].join('\n\n');
  const html = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(t.action)}</a></p>`,
    ...notes.map((p) => `<p>${escapeHtml(p)}</p>`),
  ].join('\n');
  return { to: to.email, subject: t.subject, text, html };
}

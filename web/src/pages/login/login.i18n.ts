import type { Translations } from '../../i18n';

export const loginTranslations: Translations = {
  'pt-BR': {
    email: 'E-mail',
    password: 'Senha',
    submit: 'Entrar',
    invalidEmail: 'E-mail inválido',
    required: 'Dado obrigatório',
    shortPassword: 'Senha inválida ou curta',
    longPassword: 'Senha até 20 caracteres',
    forgot: 'Esqueceu a senha?',
    signup: 'Registre, agora mesmo!',
  },
  en: {
    email: 'E-mail',
    password: 'Password',
    submit: 'Log in',
    invalidEmail: 'Invalid e-mail',
    required: 'Required',
    shortPassword: 'Invalid or short password',
    longPassword: 'Password up to 20 characters',
    forgot: 'Forgot your password?',
    signup: 'Sign up now!',
  },
  es: {
    email: 'Correo',
    password: 'Contraseña',
    submit: 'Entrar',
    invalidEmail: 'Correo inválido',
    required: 'Dato obligatorio',
    shortPassword: 'Contraseña inválida o corta',
    longPassword: 'Contraseña de hasta 20 caracteres',
    forgot: '¿Olvidó su contraseña?',
    signup: '¡Regístrese ahora!',
  },
};

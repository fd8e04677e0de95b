// Las palabras del sitio en castellano (véase catalog.ts).

import type { Messages } from './en.ts';

export const es: Messages = {
  'site.description': 'Arbiter: envía un jugador, supera la prueba del Dummy, sube en la clasificación, mira las repeticiones.',
  'nav.main': 'Principal',
  'nav.games': 'Juegos',
  'nav.matches': 'Partidas',
  'nav.queue': 'Cola',
  'nav.tournaments': 'Torneos',
  'nav.viewer': 'Visor',
  'nav.submit': 'Enviar',
  'nav.mySubmissions': 'Mis envíos',
  'nav.myChallenges': 'Mis retos',
  'nav.admin': 'Administración',
  'nav.logIn': 'Entrar',
  'nav.signUp': 'Registrarse',
  'nav.logOut': 'Salir',
  'nav.skip': 'Saltar al contenido',
  'nav.language': 'Idioma',
  'footer.api': 'API',
  'footer.status': 'estado',

  'error.notFound': 'No encontrado',
  'error.logInFirst': 'Primero hay que entrar',
  'error.notAllowed': 'No permitido',
  'error.server': 'Algo ha fallado',
  'error.refused': 'No se puede hacer',
  'error.logInOrSignUp_html': (loginHref: string) => `<a class="button" href="${loginHref}">Entra</a> o <a href="/signup">regístrate</a>.`,
  'error.backToGames': 'Volver a los juegos',
  'error.noPage': (path: string) => `No hay ninguna página en ${path}.`,
  'error.internal': 'error interno',

  'form.oneProblem': 'Hay un problema',
  'form.problems': (n: number) => `Hay ${n} problemas`,
};

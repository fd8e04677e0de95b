// Les paraules del lloc en català (vegeu catalog.ts).

import type { Messages } from './en.ts';

export const ca: Messages = {
  'site.description': 'Arbiter: envia un jugador, supera la prova del Dummy, puja a la classificació, mira les repeticions.',
  'nav.main': 'Principal',
  'nav.games': 'Jocs',
  'nav.matches': 'Partides',
  'nav.queue': 'Cua',
  'nav.tournaments': 'Tornejos',
  'nav.viewer': 'Visor',
  'nav.submit': 'Envia',
  'nav.mySubmissions': 'Els meus enviaments',
  'nav.myChallenges': 'Els meus reptes',
  'nav.admin': 'Administració',
  'nav.logIn': 'Entra',
  'nav.signUp': "Registra't",
  'nav.logOut': 'Surt',
  'nav.skip': 'Salta al contingut',
  'nav.language': 'Idioma',
  'footer.api': 'API',
  'footer.status': 'estat',

  'error.notFound': "No s'ha trobat",
  'error.logInFirst': 'Primer cal entrar',
  'error.notAllowed': 'No està permès',
  'error.server': 'Alguna cosa ha fallat',
  'error.refused': 'No es pot fer',
  'error.logInOrSignUp_html': (loginHref: string) => `<a class="button" href="${loginHref}">Entra</a> o <a href="/signup">registra't</a>.`,
  'error.backToGames': 'Torna als jocs',
  'error.noPage': (path: string) => `No hi ha cap pàgina a ${path}.`,
  'error.internal': 'error intern',

  'form.oneProblem': 'Hi ha un problema',
  'form.problems': (n: number) => `Hi ha ${n} problemes`,
};

// The site's words in English: the source the other catalogs follow (see catalog.ts).
// Keys ending in _html hold trusted markup (links, code) and are printed with th().

export const en = {
  // The page shell
  'site.description': 'Arbiter: submit a bot, pass the Dummy gate, climb the leaderboard, watch the replays.',
  'nav.main': 'Main',
  'nav.games': 'Games',
  'nav.matches': 'Matches',
  'nav.queue': 'Queue',
  'nav.tournaments': 'Tournaments',
  'nav.viewer': 'Viewer',
  'nav.submit': 'Submit',
  'nav.mySubmissions': 'My submissions',
  'nav.myChallenges': 'My challenges',
  'nav.admin': 'Admin',
  'nav.logIn': 'Log in',
  'nav.signUp': 'Sign up',
  'nav.logOut': 'Log out',
  'nav.skip': 'Skip to content',
  'nav.language': 'Language',
  'footer.api': 'API',
  'footer.status': 'status',

  // Error pages
  'error.notFound': 'Not found',
  'error.logInFirst': 'Log in first',
  'error.notAllowed': 'Not allowed',
  'error.server': 'Something went wrong',
  'error.refused': 'Cannot do that',
  'error.logInOrSignUp_html': (loginHref: string) => `<a class="button" href="${loginHref}">Log in</a> or <a href="/signup">sign up</a>.`,
  'error.backToGames': 'Back to the games',
  'error.noPage': (path: string) => `There is no page at ${path}.`,
  'error.internal': 'internal error',

  // Forms
  'form.oneProblem': 'There is a problem',
  'form.problems': (n: number) => `There are ${n} problems`,
};

export type Messages = { [K in keyof typeof en]: (typeof en)[K] extends (...args: infer A) => string ? (...args: A) => string : string };

/**
 * The word-level rules of the rewriter: typos, filler, jargon, spacing and
 * capitalisation. Each works on plain text that holds no code or URLs (the
 * caller protects those).
 */

const TYPOS: Record<string, string> = {
  teh: "the",
  hte: "the",
  taht: "that",
  adn: "and",
  wiht: "with",
  tehm: "them",
  thsi: "this",
  waht: "what",
  woudl: "would",
  shoudl: "should",
  coudl: "could",
  yuo: "you",
  jsut: "just",
  konw: "know",
  recieve: "receive",
  recieved: "received",
  recieving: "receiving",
  reciept: "receipt",
  seperate: "separate",
  seperately: "separately",
  definately: "definitely",
  occured: "occurred",
  occuring: "occurring",
  occurence: "occurrence",
  untill: "until",
  wich: "which",
  thier: "their",
  becuase: "because",
  beacuse: "because",
  adress: "address",
  accomodate: "accommodate",
  acheive: "achieve",
  acheived: "achieved",
  begining: "beginning",
  beleive: "believe",
  calender: "calendar",
  commited: "committed",
  concensus: "consensus",
  enviroment: "environment",
  existance: "existence",
  goverment: "government",
  grammer: "grammar",
  happend: "happened",
  immediatly: "immediately",
  independant: "independent",
  knowlege: "knowledge",
  occassion: "occasion",
  paramter: "parameter",
  persistant: "persistent",
  posible: "possible",
  prefered: "preferred",
  priviledge: "privilege",
  publically: "publicly",
  realy: "really",
  reccomend: "recommend",
  recomend: "recommend",
  refered: "referred",
  relevent: "relevant",
  responsability: "responsibility",
  succesful: "successful",
  successfull: "successful",
  sucessful: "successful",
  sucessfully: "successfully",
  sucess: "success",
  suprise: "surprise",
  tommorow: "tomorrow",
  truely: "truly",
  wierd: "weird",
  writting: "writing",
  alot: "a lot",
  aswell: "as well",
  infact: "in fact",
  dont: "don't",
  doesnt: "doesn't",
  isnt: "isn't",
  didnt: "didn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  couldnt: "couldn't",
  wasnt: "wasn't",
  arent: "aren't",
  ive: "I've",
  im: "I'm",
  thats: "that's",
  whats: "what's",
  funtion: "function",
  fucntion: "function",
  lenght: "length",
  widht: "width",
  heigth: "height",
  resposne: "response",
  reponse: "response",
  requirment: "requirement",
  requirments: "requirements",
  managment: "management",
  developement: "development",
  implmentation: "implementation",
  perfomance: "performance",
  performace: "performance",
  availible: "available",
  avaliable: "available",
  accross: "across",
  agressive: "aggressive",
  apparant: "apparent",
  basicly: "basically",
  buisness: "business",
  busness: "business",
  catagory: "category",
  collegue: "colleague",
  comming: "coming",
  completly: "completely",
  explaination: "explanation",
  familar: "familiar",
  finaly: "finally",
  foward: "forward",
  garantee: "guarantee",
  usefull: "useful",
  transfered: "transferred",
  wether: "whether",
  neccessary: "necessary",
  necesary: "necessary",
  noticable: "noticeable",
  similiar: "similar",
  suport: "support",
  recieves: "receives",
  arguement: "argument",
  feture: "feature",
  fetaure: "feature",
  featrue: "feature",
  custmer: "customer",
  cusotmer: "customer",
  costumer: "customer",
  usr: "user",
  updaet: "update",
  udpate: "update",
};

const FILLER: [RegExp, string][] = [
  [/\bin order to\b/gi, "to"],
  [/\bdue to the fact that\b/gi, "because"],
  [/\bin spite of the fact that\b/gi, "although"],
  [/\bat this point in time\b/gi, "now"],
  [/\bat the present time\b/gi, "now"],
  [/\bin the event that\b/gi, "if"],
  [/\bfor the purpose of\b/gi, "for"],
  [/\b(?:with regard to|with respect to|in regard to|in regards to)\b/gi, "about"],
  [/\ba (?:large|significant) number of\b/gi, "many"],
  [/\bthe (?:vast )?majority of\b/gi, "most"],
  [/\b(is|are) able to\b/gi, "can"],
  [/\bhas the ability to\b/gi, "can"],
  [/\bmake a decision\b/gi, "decide"],
  [/\btake into consideration\b/gi, "consider"],
  [/\bprior to\b/gi, "before"],
  [/\buntil such time as\b/gi, "until"],
  [/\beach and every\b/gi, "every"],
  [/\bfirst and foremost\b/gi, "first"],
  [/\babsolutely essential\b/gi, "essential"],
  [/\bend result\b/gi, "result"],
  [/\bfuture plans\b/gi, "plans"],
  [/\b(?:it is|it's) important to note that\s*/gi, ""],
  [/\b(?:it should be noted that|needless to say|as a matter of fact|for all intents and purposes),?\s*/gi, ""],
  // Intensifiers that add nothing a reader needs. Qualifiers that carry the writer's claim stay (issue 34):
  // "basically done", "not quite ready", "don't really need", "I think", "kind of slow", "roughly".
  [/(?<!\bnot\s)\b(?:literally|very)\s+(?=[a-z])/gi, ""],
];

const JARGON: Record<string, string> = {
  utilize: "use",
  utilise: "use",
  utilizes: "uses",
  utilises: "uses",
  utilized: "used",
  utilised: "used",
  utilizing: "using",
  utilization: "use",
  facilitate: "help",
  facilitates: "helps",
  facilitated: "helped",
  facilitating: "helping",
  leverage: "use",
  leverages: "uses",
  leveraged: "used",
  leveraging: "using",
  commence: "start",
  commences: "starts",
  terminate: "end",
  terminates: "ends",
  endeavor: "try",
  endeavour: "try",
  ascertain: "find out",
  approximately: "about",
  demonstrate: "show",
  demonstrates: "shows",
  sufficient: "enough",
  subsequently: "later",
  numerous: "many",
  modify: "change",
  modifies: "changes",
  obtain: "get",
  obtains: "gets",
  purchase: "buy",
  assist: "help",
  assists: "helps",
  methodology: "method",
  functionality: "features",
  optimize: "improve",
  optimise: "improve",
  paradigm: "model",
  robust: "reliable",
  seamless: "smooth",
  seamlessly: "smoothly",
  holistic: "complete",
  streamline: "simplify",
  empower: "let",
  empowers: "lets",
  synergy: "teamwork",
  additionally: "also",
  consequently: "so",
  nevertheless: "still",
  initiate: "start",
  initiates: "starts",
  prioritize: "rank",
  remediate: "fix",
  operationalize: "run",
  incentivize: "encourage",
  ideate: "brainstorm",
  actionable: "practical",
};

function withCase(original: string, replacement: string) {
  if (original === original.toUpperCase() && original.length > 1) return replacement.toUpperCase();
  if (/^[A-Z]/.test(original)) return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  return replacement;
}

const replaceWords = (text: string, dict: Record<string, string>) =>
  text.replace(/\b[A-Za-z]+\b/g, (w) => (dict[w.toLowerCase()] ? withCase(w, dict[w.toLowerCase()]!) : w));

/** Typos fixed; a word in capitals is an acronym ("IM", "USR") and stays. */
export const fixTypos = (text: string) =>
  text.replace(/\b[A-Za-z]+\b/g, (w) => (TYPOS[w.toLowerCase()] && !(w.length > 1 && w === w.toUpperCase()) ? withCase(w, TYPOS[w.toLowerCase()]!) : w));

/**
 * "is is" → "is". "that that" and "had had" can be right and stay, and so
 * does a capitalised pair: a name ("Walla Walla", "Bora Bora").
 */
export const dropRepeatedWords = (text: string) =>
  text.replace(/\b([A-Za-z]+)(\s+)\1\b/gi, (m, a: string, gap: string) =>
    /^(?:that|had)$/i.test(a) || (/^[A-Z]/.test(a) && /^[A-Z]/.test(m.slice(a.length + gap.length))) ? m : a,
  );

export function fixWords(text: string) {
  return dropRepeatedWords(fixTypos(text))
    .replace(/\bi\b(?!\.)/g, "I")
    .replace(/\bi'(m|ve|ll|d)\b/g, "I'$1");
}

/** Spacing around punctuation; with `widen: false` only the fixes that remove space (for "make concise", never longer). */
export function fixSpacing(text: string, widen = true) {
  const narrowed = text
    .replace(/(\S)[ \t]{2,}(?=\S)/g, "$1 ")
    .replace(/(?<!\s)\s+([,;:!?])(?=\s|$)/g, "$1")
    .replace(/(\w)\s+\.(?=\s|$)/g, "$1.");
  return widen ? narrowed.replace(/,(?=[A-Za-z])/g, ", ").replace(/(?<![a-z])([a-z]{2,})\.([A-Z][a-z])/g, "$1. $2") : narrowed;
}

const ABBREV = /\b(?:e\.g|i\.e|etc|vs|approx|incl|cf|no|fig|ca)\.$/i;
const capWord = (w: string) => (/^[a-z][a-z'-]*$/.test(w) ? w.charAt(0).toUpperCase() + w.slice(1) : w);

/** Capital letter at the start of the text and of each sentence (words like "iOS" or "npm.js" are left alone). */
export function capitalise(text: string, atStart: boolean) {
  const out = atStart ? text.replace(/^(\s*["“(]?)([a-z][a-z'-]*)(?=[\s,.;:!?]|$)/, (_, p: string, w: string) => p + capWord(w)) : text;
  return replaceSentenceStarts(out, (m, before, gap, w) => (ABBREV.test(before) || /[/\\]|\.\w/.test(before.slice(0, -1)) ? m : before + gap + capWord(w)));
}

const SENTENCE_START = /([^\s]*[.!?])(\s+["“(]?)([a-z][a-z'-]*)(?=[\s,.;:!?]|$)/y;

/**
 * `text.replace(/([^\s]*[.!?])(\s+["“(]?)([a-z][a-z'-]*)(?=[\s,.;:!?]|$)/g, replace)` without its quadratic
 * time on a long run of non-spaces: the pattern is tried only where a run starts (after a space, or where
 * the last match ended), the only places the global search can first succeed (a later start in the same
 * run ends at the same "." and would have matched from the run's start already).
 */
function replaceSentenceStarts(text: string, replace: (m: string, before: string, gap: string, w: string) => string) {
  let out = "";
  let copied = 0;
  let resume = 0;
  for (let i = 0; i < text.length; i++) {
    if (i !== resume && !/\s/.test(text[i - 1]!)) continue;
    SENTENCE_START.lastIndex = i;
    const m = SENTENCE_START.exec(text);
    if (!m) continue;
    out += text.slice(copied, i) + replace(m[0], m[1]!, m[2]!, m[3]!);
    copied = resume = SENTENCE_START.lastIndex;
    i = resume - 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

export function dropFiller(text: string) {
  let out = text;
  for (const [re, rep] of FILLER) out = out.replace(re, (m) => (rep ? withCase(m, rep) : ""));
  return out;
}

export const plainWords = (text: string) => replaceWords(text, JARGON);

const wordCount = (s: string) => s.match(/\S+/g)?.length ?? 0;

/**
 * Sentences over 25 words split at "; ", ", and " or ", but ". Not at the
 * last comma of a series ("PDF, PNG, JPEG, and UBL"): that "and" joins list
 * items, not clauses. A name that starts the second sentence keeps its case ("iOS").
 */
export function splitLong(text: string) {
  return text.replace(/[^.!?]+[.!?]?/g, (s) => {
    if (wordCount(s) <= 25) return s;
    for (const m of s.matchAll(/;\s+|,\s+and\s+|,\s+but\s+/gi)) {
      const before = s.slice(0, m.index);
      const rest = s.slice(m.index + m[0].length);
      if (m.index < 20 || wordCount(rest) < 3) continue;
      const lastComma = before.lastIndexOf(",");
      if (m[0].startsWith(",") && lastComma >= 0 && wordCount(before.slice(lastComma + 1)) <= 3) continue;
      const lead = /but/i.test(m[0]) ? "But " : "";
      return `${before.trimEnd()}. ${lead}${lead ? rest : rest.replace(/^[a-z][a-z'-]*(?=[\s,.;:!?]|$)/, capWord)}`;
    }
    return s;
  });
}

const PASSIVE = /\b(?:is|are|was|were|be|been|being)\s+(?:[a-z]+ed|sent|shown|given|taken|built|made|done|written|paid|kept|held|known|seen|set|sold)\b/i;
export const isPassive = (sentence: string) => PASSIVE.test(sentence);

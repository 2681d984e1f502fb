export { codeEntryStates, type CodeEntryEvent } from './codeEntry.chart';
export { connectCodeEntry } from './codeEntry.connect';

/** Thrown by the App constructor for an invalid option; the message names the option. */
export class AppOptionsError extends TypeError {
  constructor(option: string, problem: string) {
    super(`Invalid App option "${option}": ${problem}`);
    this.name = 'AppOptionsError';
  }
}

import { globalStyle } from '@vanilla-extract/css';

// Toasts sit below the fixed header, so they never cover the account menu.
globalStyle(':root', { vars: { '--toastify-toast-top': '76px' } });

/** The walletLink flow: its chart, its connectWalletLink, and what its views provide. */
export * from './walletLink.machine';
export * from './walletLink.connect';
export * as walletLinkAddress from './walletLink.address';

/** The seven questions of the landing page (product.md#faq: written from product.md#product, product.md#screens and the legal facts). */
export const FAQ_ITEMS = [
  {
    question: 'What is Sine Bisaya?',
    answer:
      'Sine Bisaya is a streaming service for Bisaya-language movies, series and other videos, made to promote and preserve Bisaya culture and language. Some videos are free; most are for PREMIUM subscribers.',
  },
  {
    question: 'How much does PREMIUM cost?',
    answer:
      'The monthly plan is Php 99. The yearly plan is Php 990, saving Php 198 — the equal of 2 free months — with a one-time payment.',
  },
  {
    question: 'How can I pay?',
    answer:
      'Through Maya: with a saved credit or debit card, a linked Maya wallet, or a one-time checkout. Checkout charges once per subscription period and does not renew automatically; the app reminds you when renewal is due. You can also redeem a voucher code.',
  },
  {
    question: 'Where do I watch?',
    answer:
      'In the Sine Bisaya mobile app from the App Store or Google Play. When you log in to the app with a free account, the subscription screen appears so you can upgrade.',
  },
  {
    question: 'Can I download videos?',
    answer: 'No. Videos stream in the app; there is no download option.',
  },
  {
    question: 'What happens if I cancel?',
    answer:
      'Cancelling keeps your access until the end of the current billing period. You can reactivate before then. Subscription fees are non-refundable.',
  },
  {
    question: 'How do I get help?',
    answer: 'Message us on our social media page; the link is in the footer under Support.',
  },
] as const;

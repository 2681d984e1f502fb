import { m } from '../../i18n';

/**
 * The seven questions of the landing page (product.md#faq: written from product.md#product, product.md#screens
 * and the legal facts), as catalog messages: references, called while the page renders (the prerender makes
 * the page in both languages, so nothing here may be read at module load).
 */
export const FAQ_ITEMS = [
  { question: m.what_is_sine_bisaya, answer: m.sine_bisaya_is_a_streaming_service },
  { question: m.how_much_does_premium_cost, answer: m.the_monthly_plan_is_php_99_the },
  { question: m.how_can_i_pay, answer: m.through_maya_with_a_saved_credit_or },
  { question: m.where_do_i_watch, answer: m.in_the_sine_bisaya_mobile_app_from },
  { question: m.can_i_download_videos, answer: m.no_videos_stream_in_the_app_there_is },
  { question: m.what_happens_if_i_cancel, answer: m.cancelling_keeps_your_access_until },
  { question: m.how_do_i_get_help, answer: m.message_us_on_our_social_media_page },
] as const satisfies readonly { question: () => string; answer: () => string }[];

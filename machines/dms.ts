/**
 * Spec §4 Direct messages, one DM page: the contact list of a relation (any, follows, other) with
 * unread counts, the selected conversation (20 a page, oldest first), its unread count set to zero
 * on selection, new messages fetched when the contact's count rises, sending, NIP-17 private
 * messages merged in as the worker unwraps them, and which protocol the open conversation uses.
 * Pure: requests, decryption, signing and publishing are actors the worker provides. The types and
 * list helpers are in dmsModel.ts.
 */
import { assign, emit, enqueueActions, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import type { FeedStatus, PublishResult } from '../core/types.ts';
import {
  DM_CONTACTS_PAGE,
  DM_PAGE_SIZE,
  errorText,
  failed,
  mergeMessages,
  missing,
  NO_USER_DATA,
  now,
  reasonOf,
  settle,
  zeroCount,
  type ContactsPage,
  type DmContext,
  type DmEmitted,
  type DmEvent,
  type DmInput,
  type DmProtocol,
  type FetchContactsInput,
  type FetchMessagesInput,
  type MessagesPage,
} from './dmsModel.ts';

export { DM_PAGE_SIZE, DM_CONTACTS_PAGE, mergeMessages } from './dmsModel.ts';
export type { FetchContactsInput, ContactsPage, FetchMessagesInput, MessagesPage, DmContext, DmProtocol, DmEvent, DmEmitted, DmInput } from './dmsModel.ts';

export const dmMachine = setup({
  types: {
    context: {} as DmContext,
    events: {} as DmEvent,
    input: {} as DmInput,
    emitted: {} as DmEmitted,
  },
  actors: {
    fetchContacts: fromPromise<ContactsPage, FetchContactsInput>(async () => missing('fetchContacts')),
    fetchMessages: fromPromise<MessagesPage, FetchMessagesInput>(async () => missing('fetchMessages')),
    resetCount: fromPromise<void, { peer: string }>(async () => missing('resetCount')),
    sendMessage: fromPromise<PublishResult, { peer: string; text: string }>(async () => missing('sendMessage')),
    peerProtocol: fromPromise<DmProtocol, { peer: string }>(async () => missing('peerProtocol')),
  },
  guards: {
    hasSelected: ({ context }) => context.selected !== undefined,
    firstUser: ({ context }) => context.userPubkey === '',
    hasMoreContacts: ({ context }) => context.hasMoreContacts,
    hasMoreMessages: ({ context }) => context.hasMoreMessages,
    totalRose: ({ context, event }) => event.type === 'TOTAL' && event.count > context.unreadTotal,
    hasQueued: ({ context }) => context.outbox.some((o) => o.status === 'pending' && o.id !== context.sendId),
    privateForSelected: ({ context, event }) => event.type === 'PRIVATE' && event.peer === context.selected,
  },
}).createMachine({
  id: 'dms',
  type: 'parallel',
  context: ({ input }) => ({
    userPubkey: input.userPubkey,
    relation: input.relation ?? 'any',
    contacts: [],
    hasMoreContacts: true,
    unreadTotal: input.unreadTotal ?? 0,
    selected: input.selected,
    messages: [],
    hasMoreMessages: true,
    outbox: [],
  }),
  on: {
    USER: [
      {
        // The stored login settling after the page opened (a reload straight onto /dms/{contact}):
        // the conversation the address asked for is kept and loaded for the signed-in user.
        guard: 'firstUser',
        target: ['.contacts.loading', '.conversation.check', '.reset.idle', '.sending.idle', '.protocol.check'],
        reenter: true,
        actions: assign(({ event }) => ({ ...NO_USER_DATA, userPubkey: event.type === 'USER' ? event.pubkey : '' })),
      },
      {
        // Another account: nothing of the last one's conversations stays on screen.
        target: ['.contacts.loading', '.conversation.none', '.reset.idle', '.sending.idle', '.protocol.idle'],
        reenter: true,
        actions: assign(({ event }) => ({ ...NO_USER_DATA, userPubkey: event.type === 'USER' ? event.pubkey : '', selected: undefined })),
      },
    ],
  },
  states: {
    contacts: {
      initial: 'loading',
      on: {
        SET_RELATION: {
          target: '.loading',
          actions: assign(({ event }) => ({ relation: event.type === 'SET_RELATION' ? event.relation : 'any', contacts: [], contactsCursor: undefined, hasMoreContacts: true })),
        },
        REFRESH_CONTACTS: { target: '.loading' },
        // A private conversation's latest message and count live in the worker: the list is merged again.
        PRIVATE: { target: '.loading' },
        // Handled inside this region, so that reloading the contacts leaves the conversation alone.
        TOTAL: [
          // A rise means someone wrote: the contact list (and its counts) is fetched again.
          {
            guard: 'totalRose',
            target: '.loading',
            actions: [
              assign({ unreadTotal: ({ event }) => (event.type === 'TOTAL' ? event.count : 0) }),
              // The open conversation may be with someone outside the shown relation's list: it
              // looks for news itself, and resets the count when the news is from that person.
              enqueueActions(({ context, enqueue }) => {
                if (context.selected !== undefined) enqueue.raise({ type: 'FETCH_NEW' });
              }),
            ],
          },
          { actions: assign({ unreadTotal: ({ event }) => (event.type === 'TOTAL' ? event.count : 0) }) },
        ],
      },
      states: {
        loading: {
          invoke: {
            src: 'fetchContacts',
            input: ({ context }) => ({ userPubkey: context.userPubkey, relation: context.relation, limit: DM_CONTACTS_PAGE }),
            onDone: {
              target: 'ready',
              actions: [
                assign(({ context, event }) => ({
                  // The open conversation is being read: its count shows zero until the reset lands.
                  contacts: zeroCount(event.output.contacts, context.selected),
                  contactsCursor: event.output.since,
                  hasMoreContacts: event.output.contacts.length > 0 && event.output.since !== undefined,
                  error: undefined,
                })),
              ],
            },
            onError: { target: 'error', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
        ready: { on: { LOAD_MORE_CONTACTS: { guard: 'hasMoreContacts', target: 'loadingMore' } } },
        loadingMore: {
          invoke: {
            src: 'fetchContacts',
            input: ({ context }) => ({ userPubkey: context.userPubkey, relation: context.relation, limit: DM_CONTACTS_PAGE, until: context.contactsCursor }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => {
                const known = new Set(context.contacts.map((c) => c.pubkey));
                const added = event.output.contacts.filter((c) => !known.has(c.pubkey));
                return {
                  contacts: [...context.contacts, ...added],
                  contactsCursor: event.output.since ?? context.contactsCursor,
                  hasMoreContacts: added.length > 0 && event.output.since !== undefined,
                };
              }),
            },
            onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
        error: { on: { LOAD_MORE_CONTACTS: 'loading' } },
      },
    },
    conversation: {
      initial: 'check',
      on: {
        SELECT: {
          // Not `reenter`: in a parallel machine that would exit and re-enter every region (SCXML
          // transition domain); a child target alone still restarts `loading`. The count reset
          // starts from `loading`'s entry, since a target in another region would do the same.
          target: '.loading',
          actions: assign(({ context, event }) => {
            const pubkey = event.type === 'SELECT' ? event.pubkey : undefined;
            return {
              selected: pubkey,
              messages: [],
              messagesCursor: undefined,
              hasMoreMessages: true,
              decryptError: undefined,
              contacts: zeroCount(context.contacts, pubkey),
            };
          }),
        },
        PRIVATE: {
          guard: 'privateForSelected',
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              // Read while open: the new message's count goes back to zero as for NIP-04.
              if (event.type === 'PRIVATE' && event.messages.some((m) => m.sender === context.selected)) enqueue.raise({ type: 'RESET_COUNT' });
            }),
            assign(({ context, event }) => {
              const merged = mergeMessages(context.messages, event.type === 'PRIVATE' ? event.messages : []);
              return { messages: merged, outbox: settle(context.outbox, merged) };
            }),
          ],
        },
      },
      states: {
        // A remembered conversation (dmLastConversation) opens with the page.
        check: { always: [{ guard: 'hasSelected', target: 'loading' }, { target: 'none' }] },
        none: {},
        loading: {
          entry: raise({ type: 'RESET_COUNT' }),
          invoke: {
            src: 'fetchMessages',
            input: ({ context }) => ({ userPubkey: context.userPubkey, peer: context.selected ?? '', limit: DM_PAGE_SIZE }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                messages: mergeMessages([], event.output.messages),
                outbox: settle(context.outbox, event.output.messages),
                decryptError: event.output.undecryptable,
                messagesCursor: event.output.since,
                hasMoreMessages: event.output.received > 0 && event.output.since !== undefined,
                error: undefined,
              })),
            },
            onError: { target: 'error', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
        ready: {
          on: {
            LOAD_MORE: { guard: 'hasMoreMessages', target: 'loadingMore' },
            FETCH_NEW: 'fetchingNew',
          },
        },
        loadingMore: {
          invoke: {
            src: 'fetchMessages',
            input: ({ context }) => ({ userPubkey: context.userPubkey, peer: context.selected ?? '', limit: DM_PAGE_SIZE, until: context.messagesCursor }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => {
                const merged = mergeMessages(context.messages, event.output.messages);
                return {
                  messages: merged,
                  decryptError: event.output.undecryptable ?? context.decryptError,
                  messagesCursor: event.output.since ?? context.messagesCursor,
                  // The boundary message comes back (until is inclusive): only a page with news goes on.
                  hasMoreMessages: merged.length > context.messages.length && event.output.since !== undefined,
                };
              }),
            },
            onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
        fetchingNew: {
          invoke: {
            src: 'fetchMessages',
            input: ({ context }) => ({
              userPubkey: context.userPubkey,
              peer: context.selected ?? '',
              limit: DM_PAGE_SIZE,
              since: context.messages.at(-1)?.created_at,
            }),
            onDone: {
              target: 'ready',
              actions: [
                enqueueActions(({ context, event, enqueue }) => {
                  const known = new Set(context.messages.map((m) => m.id));
                  if (event.output.messages.some((m) => !known.has(m.id) && m.sender === context.selected)) enqueue.raise({ type: 'RESET_COUNT' });
                }),
                assign(({ context, event }) => {
                  const merged = mergeMessages(context.messages, event.output.messages);
                  return { messages: merged, outbox: settle(context.outbox, merged), decryptError: event.output.undecryptable ?? context.decryptError };
                }),
              ],
            },
            onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
          // Another rise while fetching: fetch once more afterwards.
          on: { FETCH_NEW: { target: 'fetchingNew', reenter: true } },
        },
        error: { on: { LOAD_MORE: 'loading' } },
      },
    },
    reset: {
      initial: 'idle',
      states: {
        idle: { on: { RESET_COUNT: { guard: 'hasSelected', target: 'resetting' } } },
        resetting: {
          invoke: {
            src: 'resetCount',
            input: ({ context }) => ({ peer: context.selected ?? '' }),
            onDone: 'idle',
            // The count stays on the server; the next rise or selection tries again.
            onError: 'idle',
          },
          // Another contact was selected meanwhile: reset that one too.
          on: { RESET_COUNT: { target: 'resetting', reenter: true } },
        },
      },
    },
    sending: {
      initial: 'idle',
      on: {
        // Written messages queue up, each shown at once as pending; one is sent at a time, in order.
        SEND: [
          {
            guard: 'hasSelected',
            actions: assign({
              outbox: ({ context, event }) =>
                event.type === 'SEND' ? [...context.outbox, { id: event.id, peer: context.selected ?? '', text: event.text, created_at: now(), status: 'pending' as const }] : context.outbox,
            }),
          },
          { actions: emit(({ event }) => ({ type: 'sent' as const, id: event.type === 'SEND' ? event.id : 0, result: failed('no-conversation') })) },
        ],
        RETRY: {
          actions: assign({
            outbox: ({ context, event }) =>
              context.outbox.map((o) => (event.type === 'RETRY' && o.id === event.id && o.status === 'failed' ? { ...o, status: 'pending' as const, reason: undefined, created_at: now() } : o)),
          }),
        },
      },
      states: {
        idle: {
          always: {
            guard: 'hasQueued',
            target: 'sending',
            actions: assign({ sendId: ({ context }) => context.outbox.find((o) => o.status === 'pending')?.id }),
          },
        },
        sending: {
          invoke: {
            src: 'sendMessage',
            input: ({ context }) => {
              const entry = context.outbox.find((o) => o.id === context.sendId);
              return { peer: entry?.peer ?? '', text: entry?.text ?? '' };
            },
            onDone: {
              target: 'idle',
              actions: [
                emit(({ context, event }) => ({ type: 'sent' as const, id: context.sendId ?? 0, result: event.output })),
                assign(({ context, event }) => ({
                  sendId: undefined,
                  outbox: context.outbox.map((o) =>
                    o.id !== context.sendId
                      ? o
                      : event.output.success
                        ? { ...o, status: 'sent' as const, eventId: event.output.event?.id }
                        : { ...o, status: 'failed' as const, reason: reasonOf(event.output) },
                  ),
                })),
                // What was sent shows in the conversation from the cache, like any new message.
                enqueueActions(({ event, enqueue }) => {
                  if (event.output.success) enqueue.raise({ type: 'FETCH_NEW' });
                }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                emit(({ context, event }) => ({ type: 'sent' as const, id: context.sendId ?? 0, result: failed(errorText(event.error)) })),
                assign(({ context, event }) => ({
                  sendId: undefined,
                  outbox: context.outbox.map((o) => (o.id === context.sendId ? { ...o, status: 'failed' as const, reason: errorText(event.error) } : o)),
                })),
              ],
            },
          },
        },
      },
    },
    // Which protocol the open conversation is written with, shown above the composer.
    protocol: {
      initial: 'check',
      on: { SELECT: { target: '.looking', actions: assign({ protocol: undefined }) } },
      states: {
        check: { always: [{ guard: 'hasSelected', target: 'looking' }, { target: 'idle' }] },
        idle: {},
        looking: {
          invoke: {
            src: 'peerProtocol',
            input: ({ context }) => ({ peer: context.selected ?? '' }),
            onDone: { target: 'idle', actions: assign({ protocol: ({ event }) => event.output }) },
            // Without the other side's inbox list, NIP-04 is what can be sent.
            onError: { target: 'idle', actions: assign({ protocol: 'nip04' as const }) },
          },
        },
      },
    },
  },
});

export type DmMachineSnapshot = SnapshotFrom<typeof dmMachine>;

function statusOf(snap: DmMachineSnapshot, region: 'contacts' | 'conversation'): FeedStatus {
  const value = (snap.value as Record<string, string>)[region];
  if (value === 'loading' || value === 'fetchingNew') return value === 'loading' ? 'loading' : 'ready';
  if (value === 'loadingMore') return 'loadingMore';
  if (value === 'error') return 'error';
  if (value === 'none' || value === 'check') return 'idle';
  return 'ready';
}

export const contactsStatusOf = (snap: DmMachineSnapshot): FeedStatus => statusOf(snap, 'contacts');
export const conversationStatusOf = (snap: DmMachineSnapshot): FeedStatus => statusOf(snap, 'conversation');
export const isSending = (snap: DmMachineSnapshot): boolean => snap.matches({ sending: 'sending' });

/**
 * The picker's curated Unicode set: the emoji people reach for most, grouped the way phone
 * keyboards group them, small enough to show without a search box. Space-separated so flags and
 * emoji with a presentation selector stay one item.
 */
export type EmojiCategory = 'smileys' | 'gestures' | 'hearts' | 'nature' | 'food' | 'activity' | 'travel';

export const EMOJI_SET: { category: EmojiCategory; emoji: string[] }[] = [
  { category: 'smileys', emoji: '😀 😃 😄 😁 😆 😅 😂 🤣 🙂 🙃 😉 😊 😇 🥰 😍 🤩 😘 😋 😛 😜 🤪 🤗 🤭 🤫 🤔 🤨 😐 😑 😶 🙄 😏 😬 😌 😔 😴 🤤 😷 🤒 🤯 🥳 😎 🤓 🧐 😕 😟 😮 😲 😳 🥺 😢 😭 😱 😤 😡 🤬 💀 🤡 👻 👽 🤖'.split(' ') },
  { category: 'gestures', emoji: '👍 👎 👌 🤌 ✌️ 🤞 🤟 🤘 🤙 👈 👉 👆 👇 ☝️ 👋 🤚 🖐️ ✋ 👏 🙌 🫶 👐 🤲 🤝 🙏 💪 🫡 🧠 👀 🤷 🤦 🙋'.split(' ') },
  { category: 'hearts', emoji: '❤️ 🧡 💛 💚 💙 💜 🖤 🤍 🤎 💔 💕 💞 💓 💗 💖 💘 💝 💯 💢 💥 💫 💦 💨 🔥 ✨ ⭐ 🌟 ⚡ ✅ ❌ ❓ ❗ 💤'.split(' ') },
  { category: 'nature', emoji: '🐶 🐱 🐭 🐹 🐰 🦊 🐻 🐼 🐨 🐯 🦁 🐮 🐷 🐸 🐵 🐔 🐧 🐦 🦆 🦅 🦉 🐴 🦄 🐝 🦋 🐌 🐞 🐢 🐍 🐙 🐬 🐳 🦈 🐊 🦒 🦘 🌸 🌹 🌻 🌼 🌷 🌱 🌲 🌳 🍀 🍁 🍂 🌍 🌙 ☀️ 🌈 ☁️ ❄️ 🌊'.split(' ') },
  { category: 'food', emoji: '🍏 🍎 🍐 🍊 🍋 🍌 🍉 🍇 🍓 🍒 🍑 🥭 🍍 🥥 🥝 🍅 🥑 🥦 🌶️ 🌽 🥕 🥐 🍞 🧀 🥚 🍳 🥓 🥩 🍗 🍔 🍟 🍕 🌭 🥪 🌮 🍝 🍜 🍲 🍣 🍰 🎂 🧁 🍩 🍪 🍫 🍬 🍿 ☕ 🍵 🍺 🍻 🥂 🍷 🥃'.split(' ') },
  { category: 'activity', emoji: '⚽ 🏀 🏈 ⚾ 🎾 🏐 🏓 🏸 🥊 🚴 🏃 🧘 🎉 🎊 🎈 🎁 🏆 🥇 🎮 🎲 🎯 🎸 🎹 🎧 🎤 🎬 📷 📱 💻 ⌨️ 📚 ✏️ 📌 📎 🔑 🔒 💡 💰 💸 🪙'.split(' ') },
  { category: 'travel', emoji: '🚗 🚕 🚌 🚎 🚑 🚒 🚲 🛴 🏍️ 🚂 🚆 ✈️ 🚀 🛸 🚢 ⛵ 🏠 🏡 🏢 🏰 🗼 🗽 ⛪ 🕌 🏔️ ⛰️ 🏕️ 🏖️ 🏝️ 🌋 🗺️ 🧭 ⏰ ⌛ 🌃 🌆 🌇 🌉 🇭🇺'.split(' ') },
];

